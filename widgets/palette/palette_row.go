package palette

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// paletteRow draws a command on one line: its title with the matched
// characters in bold, its detail dimmed, then its source and shortcut. A
// command that cannot run now has its title greyed and, instead of its
// detail, the reason in italics.
type paletteRow struct {
	widget.BaseWidget
	kit.KeyRow

	item     model.PaletteItem
	pos      []int
	runs     []*canvas.Text // pooled pieces of the title
	used     int
	detail   *canvas.Text
	source   *kit.TagPill
	shortcut *canvas.Text
	objs     []fyne.CanvasObject
}

func newPaletteRow(l *kit.KeyList) *paletteRow {
	r := &paletteRow{KeyRow: kit.KeyRow{List: l}, source: kit.NewTagPill()}
	r.detail = canvas.NewText("", nil)
	r.shortcut = canvas.NewText("", nil)
	r.ExtendBaseWidget(r)
	return r
}

func (r *paletteRow) Set(id int, it model.PaletteItem, pos []int) {
	r.Id, r.item, r.pos = id, it, pos
	r.Restyle()
	r.Arrange(r.Size())
	canvas.Refresh(r)
}

func (r *paletteRow) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: r} }

func (r *paletteRow) Restyle() {
	th := r.Theme()
	r.detail.TextSize = th.Size(theme.SizeNameText)
	r.detail.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	r.detail.TextStyle = fyne.TextStyle{Italic: r.item.Unavailable != ""}
	r.shortcut.TextSize = th.Size(theme.SizeNameCaptionText)
	r.shortcut.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	r.shortcut.TextStyle.Monospace = true
	r.shortcut.Text = r.item.Shortcut
	word := r.item.Source
	if word == "app" {
		word = "" // most commands are the app's: only the others say so
	}
	r.source.Set(th, word, kit.ResolveColor(th, theme.ColorNamePlaceHolder))
}

func (r *paletteRow) HeightAt(float32) float32 {
	th := r.Theme()
	h := fyne.MeasureText("Hg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height
	return h + 2*th.Size(theme.SizeNamePadding)
}

func (r *paletteRow) Arrange(size fyne.Size) {
	th := r.Theme()
	inner := th.Size(theme.SizeNameInnerPadding)
	mid := size.Height / 2
	x, right := inner, size.Width-inner

	if r.shortcut.Text != "" {
		s := fyne.MeasureText(r.shortcut.Text, r.shortcut.TextSize, r.shortcut.TextStyle)
		right -= s.Width
		r.shortcut.Move(fyne.NewPos(right, mid-s.Height/2))
		r.shortcut.Resize(s)
		right -= inner
	} else {
		// A pooled row keeps no trace of the command it showed before.
		r.shortcut.Move(fyne.Position{})
		r.shortcut.Resize(fyne.Size{})
	}
	if w := r.source.Size(th).Width; w > 0 {
		right -= w
		r.source.Place(th, right, mid)
		right -= inner
	} else {
		r.source.Place(th, 0, mid)
	}

	x = r.placeTitle(th, x, right, mid)
	r.detail.Text = ""
	if d := rowDetail(r.item); d != "" && right-x > 2*inner {
		x += 2 * inner
		r.detail.Text = kit.FitText(d, right-x, r.detail.TextSize, r.detail.TextStyle)
		s := fyne.MeasureText(r.detail.Text, r.detail.TextSize, r.detail.TextStyle)
		r.detail.Move(fyne.NewPos(x, mid-s.Height/2))
		r.detail.Resize(s)
	}
}

// placeTitle lays the title out as runs of matched (bold) and unmatched
// characters from x, cut to end before right, and returns where it ends.
func (r *paletteRow) placeTitle(th fyne.Theme, x, right, mid float32) float32 {
	size := th.Size(theme.SizeNameText)
	fg, hi := kit.ResolveColor(th, theme.ColorNameForeground), kit.ResolveColor(th, theme.ColorNamePrimary)
	if r.item.Unavailable != "" {
		// Dimmed as the detail is, not the disabled colour, which all but
		// vanishes on the selection's tint.
		fg = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	}
	if r.List != nil && r.List.Sel == r.Id || r.item.Unavailable != "" {
		hi = fg // the selection is tinted with the primary colour already
	}
	title := []rune(kit.FirstTextLine(r.item.Title))
	matched := make(map[int]bool, len(r.pos))
	for _, p := range r.pos {
		matched[p] = true
	}
	r.used = 0
	for start := 0; start < len(title) && x < right; {
		bold := matched[start]
		end := start + 1
		for end < len(title) && matched[end] == bold {
			end++
		}
		t := r.run()
		t.Text = string(title[start:end])
		t.TextSize = size
		t.TextStyle = fyne.TextStyle{Bold: bold}
		t.Color = fg
		if bold {
			t.Color = hi
		}
		s := fyne.MeasureText(t.Text, size, t.TextStyle)
		if x+s.Width > right {
			t.Text = kit.FitText(t.Text, right-x, size, t.TextStyle)
			s = fyne.MeasureText(t.Text, size, t.TextStyle)
			end = len(title)
		}
		t.Move(fyne.NewPos(x, mid-s.Height/2))
		t.Resize(s)
		x += s.Width
		start = end
	}
	for _, t := range r.runs[r.used:] {
		t.Hide()
	}
	return x
}

// paletteNaturalWidth is how wide a row must be to show it uncut.
func paletteNaturalWidth(th fyne.Theme, it model.PaletteItem) float32 {
	inner := th.Size(theme.SizeNameInnerPadding)
	pad := th.Size(theme.SizeNamePadding)
	text, caption := th.Size(theme.SizeNameText), th.Size(theme.SizeNameCaptionText)
	w := 2*inner + fyne.MeasureText(kit.FirstTextLine(it.Title), text, fyne.TextStyle{Bold: true}).Width
	if d := rowDetail(it); d != "" {
		w += 2*inner + fyne.MeasureText(d, text, fyne.TextStyle{Italic: it.Unavailable != ""}).Width
	}
	if it.Source != "" && it.Source != "app" {
		w += inner + 2*pad + fyne.MeasureText(it.Source, caption, fyne.TextStyle{Bold: true}).Width
	}
	if it.Shortcut != "" {
		w += inner + fyne.MeasureText(it.Shortcut, caption, fyne.TextStyle{Monospace: true}).Width
	}
	return w
}

// rowDetail is what a row shows after the title: why the command cannot
// run now, else its detail's first line.
func rowDetail(it model.PaletteItem) string {
	if it.Unavailable != "" {
		return it.Unavailable
	}
	return kit.FirstTextLine(it.Detail)
}

func (r *paletteRow) run() *canvas.Text {
	if r.used == len(r.runs) {
		r.runs = append(r.runs, canvas.NewText("", nil))
		r.objs = nil
	}
	t := r.runs[r.used]
	r.used++
	t.Show()
	return t
}

func (r *paletteRow) Parts() []fyne.CanvasObject {
	if r.objs == nil {
		r.objs = []fyne.CanvasObject{r.source.Bg, r.source.Text, r.detail, r.shortcut}
		for _, t := range r.runs {
			r.objs = append(r.objs, t)
		}
	}
	return r.objs
}
