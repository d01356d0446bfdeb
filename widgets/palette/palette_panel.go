package palette

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// palettePanel is what the palette's pop-up holds: the filter box over the
// list of commands.
type palettePanel struct {
	widget.BaseWidget

	entry *paletteEntry
	list  *kit.KeyList
	empty *widget.Label
}

func newPalettePanel(p *CommandPalette) *palettePanel {
	pp := &palettePanel{}
	pp.entry = &paletteEntry{p: p}
	pp.entry.PlaceHolder = "Type a command"
	pp.entry.OnChanged = p.filter
	pp.entry.ExtendBaseWidget(pp.entry)
	pp.list = kit.NewKeyList(func() int { return len(p.hits) },
		func() fyne.CanvasObject { return newPaletteRow(pp.list) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= 0 && id < len(p.hits) {
				h := p.hits[id]
				o.(*paletteRow).Set(id, p.items[h.item], h.pos)
			}
		})
	pp.list.TapActivates = true
	pp.list.OnActivate = p.run
	pp.list.OnEscape = p.Hide
	// Reached with Tab: the list gives typing and Up on its top row back
	// to the filter box.
	back := func() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(pp); c != nil {
			c.Focus(pp.entry)
		}
	}
	pp.list.OnLeaveTop = back
	pp.list.OnRune = func(r rune) {
		back()
		pp.entry.TypedRune(r)
	}
	pp.empty = widget.NewLabel("No matching command")
	pp.empty.Alignment = fyne.TextAlignCenter
	pp.empty.Importance = widget.LowImportance
	pp.empty.Hide()
	pp.ExtendBaseWidget(pp)
	return pp
}

func (pp *palettePanel) CreateRenderer() fyne.WidgetRenderer {
	return &palettePanelRenderer{pp: pp}
}

type palettePanelRenderer struct {
	pp *palettePanel
}

func (r *palettePanelRenderer) Destroy() {}

func (r *palettePanelRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.pp.entry, r.pp.list, r.pp.empty}
}

func (r *palettePanelRenderer) MinSize() fyne.Size {
	pp := r.pp
	pad := pp.Theme().Size(theme.SizeNamePadding)
	e := pp.entry.MinSize()
	return fyne.NewSize(max(e.Width, 320), e.Height+pad+4*(pp.list.RowHeight+pad))
}

func (r *palettePanelRenderer) Layout(size fyne.Size) {
	pp := r.pp
	pad := pp.Theme().Size(theme.SizeNamePadding)
	eh := pp.entry.MinSize().Height
	pp.entry.Move(fyne.NewPos(0, 0))
	pp.entry.Resize(fyne.NewSize(size.Width, eh))
	y := eh + pad
	pp.list.Move(fyne.NewPos(0, y))
	pp.list.Resize(fyne.NewSize(size.Width, max(0, size.Height-y)))
	pp.empty.Move(fyne.NewPos(0, y))
	pp.empty.Resize(fyne.NewSize(size.Width, pp.empty.MinSize().Height))
}

func (r *palettePanelRenderer) Refresh() {
	r.Layout(r.pp.Size())
	for _, o := range r.Objects() {
		o.Refresh()
	}
}
