package widgets

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// paletteHit is an item that matched the query.
type paletteHit struct {
	item  int
	score int
	pos   []int // matched runes of the title, to draw in bold
}

// rankPalette returns the items matching query, best first; equal scores
// keep the items' order, so an empty query lists them as given. skip is a
// prefix of titles the query is not expected to repeat ("/" for slash
// commands). With details, an item whose title does not match is still
// found by a word of its detail, after every title match.
func rankPalette(query string, items []model.PaletteItem, skip string, details bool) []paletteHit {
	hits := make([]paletteHit, 0, len(items))
	q := strings.ToLower(strings.TrimSpace(query))
	off := len([]rune(skip))
	for i, it := range items {
		title := it.Title
		shift := 0
		if skip != "" && strings.HasPrefix(title, skip) {
			title, shift = title[len(skip):], off
		}
		if score, ok, pos := fuzzyMatch(q, title); ok {
			for k := range pos {
				pos[k] += shift
			}
			hits = append(hits, paletteHit{item: i, score: score, pos: pos})
		} else if details && q != "" && strings.Contains(strings.ToLower(it.Detail), q) {
			hits = append(hits, paletteHit{item: i, score: 1})
		}
	}
	slices.SortStableFunc(hits, func(a, b paletteHit) int { return b.score - a.score })
	return hits
}

// paletteRow draws a command on one line: its title with the matched
// characters in bold, its detail dimmed, then its source and shortcut.
type paletteRow struct {
	widget.BaseWidget
	keyRow

	item     model.PaletteItem
	pos      []int
	runs     []*canvas.Text // pooled pieces of the title
	used     int
	detail   *canvas.Text
	source   *tagPill
	shortcut *canvas.Text
	objs     []fyne.CanvasObject
}

func newPaletteRow(l *keyList) *paletteRow {
	r := &paletteRow{keyRow: keyRow{list: l}, source: newTagPill()}
	r.detail = canvas.NewText("", nil)
	r.shortcut = canvas.NewText("", nil)
	r.ExtendBaseWidget(r)
	return r
}

func (r *paletteRow) set(id int, it model.PaletteItem, pos []int) {
	r.id, r.item, r.pos = id, it, pos
	r.restyle()
	r.layout(r.Size())
	canvas.Refresh(r)
}

func (r *paletteRow) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: r} }

func (r *paletteRow) restyle() {
	th := r.Theme()
	r.detail.TextSize = th.Size(theme.SizeNameText)
	r.detail.Color = resolveColor(th, theme.ColorNamePlaceHolder)
	r.shortcut.TextSize = th.Size(theme.SizeNameCaptionText)
	r.shortcut.Color = resolveColor(th, theme.ColorNamePlaceHolder)
	r.shortcut.TextStyle.Monospace = true
	r.shortcut.Text = r.item.Shortcut
	word := r.item.Source
	if word == "app" {
		word = "" // most commands are the app's: only the others say so
	}
	r.source.set(th, word, resolveColor(th, theme.ColorNamePlaceHolder))
}

func (r *paletteRow) heightAt(float32) float32 {
	th := r.Theme()
	h := fyne.MeasureText("Hg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height
	return h + 2*th.Size(theme.SizeNamePadding)
}

func (r *paletteRow) layout(size fyne.Size) {
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
	}
	if w := r.source.size(th).Width; w > 0 {
		right -= w
		r.source.place(th, right, mid)
		right -= inner
	} else {
		r.source.place(th, 0, mid)
	}

	x = r.placeTitle(th, x, right, mid)
	r.detail.Text = ""
	if d := firstTextLine(r.item.Detail); d != "" && right-x > 2*inner {
		x += 2 * inner
		r.detail.Text = fitText(d, right-x, r.detail.TextSize, r.detail.TextStyle)
		s := fyne.MeasureText(r.detail.Text, r.detail.TextSize, r.detail.TextStyle)
		r.detail.Move(fyne.NewPos(x, mid-s.Height/2))
		r.detail.Resize(s)
	}
}

// placeTitle lays the title out as runs of matched (bold) and unmatched
// characters from x, cut to end before right, and returns where it ends.
func (r *paletteRow) placeTitle(th fyne.Theme, x, right, mid float32) float32 {
	size := th.Size(theme.SizeNameText)
	fg, hi := resolveColor(th, theme.ColorNameForeground), resolveColor(th, theme.ColorNamePrimary)
	if r.list != nil && r.list.sel == r.id {
		hi = fg // the selection is tinted with the primary colour already
	}
	title := []rune(firstTextLine(r.item.Title))
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
			t.Text = fitText(t.Text, right-x, size, t.TextStyle)
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
	w := 2*inner + fyne.MeasureText(firstTextLine(it.Title), text, fyne.TextStyle{Bold: true}).Width
	if d := firstTextLine(it.Detail); d != "" {
		w += 2*inner + fyne.MeasureText(d, text, fyne.TextStyle{}).Width
	}
	if it.Source != "" && it.Source != "app" {
		w += inner + 2*pad + fyne.MeasureText(it.Source, caption, fyne.TextStyle{Bold: true}).Width
	}
	if it.Shortcut != "" {
		w += inner + fyne.MeasureText(it.Shortcut, caption, fyne.TextStyle{Monospace: true}).Width
	}
	return w
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

func (r *paletteRow) objects() []fyne.CanvasObject {
	if r.objs == nil {
		r.objs = []fyne.CanvasObject{r.source.bg, r.source.text, r.detail, r.shortcut}
		for _, t := range r.runs {
			r.objs = append(r.objs, t)
		}
	}
	return r.objs
}
