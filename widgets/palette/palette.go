package palette

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// paletteMaxWidth keeps the palette a readable column on a wide window.
const paletteMaxWidth = 640

// CommandPalette is the Ctrl+K command list: a modal pop-up with a filter
// box and the matching commands, best first (see rankPalette: the title's
// start and word starts, then keywords and detail words, then scattered
// letters; the recently used first among equals, so an empty filter opens
// on the last command run). Commands that cannot run now are greyed with
// their reason, listed last and not run. Up, Down, Page Up and Page Down
// move, Enter or a click runs a command and closes the palette, Esc or
// Ctrl+K closes it.
type CommandPalette struct {
	// OnRun runs a command; the palette is already closed, so the command
	// may open a dialog of its own.
	OnRun func(item model.PaletteItem)

	items  []model.PaletteItem
	recent []string
	hits   []paletteHit
	panel  *palettePanel
	popup  *widget.PopUp
}

// NewCommandPalette returns a palette with no commands.
func NewCommandPalette() *CommandPalette {
	p := &CommandPalette{}
	p.panel = newPalettePanel(p)
	p.filter("")
	return p
}

// SetItems replaces the commands, in the order an empty filter lists them.
func (p *CommandPalette) SetItems(items []model.PaletteItem) {
	p.items = slices.Clone(items)
	p.filter(p.panel.entry.Text)
}

// SetRecent names the commands used lately by ID, most recent first: an
// empty filter lists them first, and they win ties in a filtered list.
func (p *CommandPalette) SetRecent(ids []string) {
	p.recent = slices.Clone(ids)
	p.filter(p.panel.entry.Text)
}

// Show opens the palette over c with an empty filter and the keyboard in
// it. Showing it while it is open does nothing.
func (p *CommandPalette) Show(c fyne.Canvas) {
	if p.Showing() && p.popup.Canvas == c {
		return
	}
	if p.popup == nil || p.popup.Canvas != c {
		p.Hide()
		p.popup = widget.NewModalPopUp(p.panel, c)
	}
	p.panel.entry.SetText("")
	p.filter("")
	p.popup.Resize(paletteSize(c.Size(), p.panel.MinSize(), p.panel.Theme()))
	p.popup.Show()
	c.Focus(p.panel.entry)
}

// paletteSize makes the palette two thirds of the window high: a modal
// pop-up is always centred, so that puts its top a sixth of the way down,
// where the eye looks for a command line.
func paletteSize(canvas, least fyne.Size, th fyne.Theme) fyne.Size {
	pad := th.Size(theme.SizeNamePadding)
	w := max(least.Width, min(paletteMaxWidth, canvas.Width-8*pad))
	h := max(least.Height, canvas.Height*2/3)
	return fyne.NewSize(w, h)
}

// Listed are the commands the palette lists now, in their order; the
// first is selected when it opens.
func (p *CommandPalette) Listed() []model.PaletteItem {
	out := make([]model.PaletteItem, len(p.hits))
	for i, h := range p.hits {
		out[i] = p.items[h.item]
	}
	return out
}

// Hide closes the palette.
func (p *CommandPalette) Hide() {
	if p.popup != nil {
		p.popup.Hide()
	}
}

// Showing reports whether the palette is open.
func (p *CommandPalette) Showing() bool {
	return p.popup != nil && p.popup.Visible()
}

func (p *CommandPalette) filter(query string) {
	p.hits = rankPalette(query, p.items, rankOptions{details: true, recent: p.recent})
	sel := 0
	if len(p.hits) == 0 {
		sel = -1
	}
	p.panel.list.Reset(sel)
	p.panel.list.ScrollToTop()
	if len(p.hits) == 0 {
		p.panel.empty.Show()
	} else {
		p.panel.empty.Hide()
	}
}

func (p *CommandPalette) run(id widget.ListItemID) {
	if id < 0 || id >= len(p.hits) {
		return
	}
	item := p.items[p.hits[id].item]
	if item.Unavailable != "" {
		return // greyed: its row says why
	}
	p.Hide()
	if p.OnRun != nil {
		p.OnRun(item)
	}
}

// paletteEntry is the filter box; it keeps the keyboard while the arrows
// and Enter work the list.
type paletteEntry struct {
	widget.Entry
	p *CommandPalette
}

func (e *paletteEntry) TypedKey(ev *fyne.KeyEvent) {
	l := e.p.panel.list
	switch ev.Name {
	case fyne.KeyUp:
		l.Step(-1)
	case fyne.KeyDown:
		l.Step(1)
	case fyne.KeyPageUp:
		l.Step(-l.Page())
	case fyne.KeyPageDown:
		l.Step(l.Page())
	case fyne.KeyReturn, fyne.KeyEnter:
		e.p.run(l.Sel)
	case fyne.KeyEscape:
		e.p.Hide()
	default:
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut closes the palette on a second Ctrl+K, as the key that
// opened it.
func (e *paletteEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.KeyName == fyne.KeyK &&
		(cs.Modifier == fyne.KeyModifierShortcutDefault || cs.Modifier == fyne.KeyModifierControl) {
		e.p.Hide()
		return
	}
	e.Entry.TypedShortcut(s)
}
