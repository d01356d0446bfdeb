package tools

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
)

var (
	_ desktop.Mouseable   = (*MonoView)(nil)
	_ fyne.Draggable      = (*MonoView)(nil)
	_ fyne.DoubleTappable = (*MonoView)(nil)
	_ desktop.Cursorable  = (*MonoView)(nil)
)

// monoPoint is a place in a MonoDoc's text: a line (its stream number)
// and a column, in runes (a cell each).
type monoPoint struct{ line, col int }

func (p monoPoint) before(o monoPoint) bool {
	return p.line < o.line || p.line == o.line && p.col < o.col
}

// monoSelection is the selected text of a MonoDoc, kept with the document
// so it outlives the view drawing it being recycled for another card.
type monoSelection struct {
	anchor, head monoPoint
	active       bool
}

// ordered is the selection's start and end.
func (s monoSelection) ordered() (monoPoint, monoPoint) {
	if s.head.before(s.anchor) {
		return s.head, s.anchor
	}
	return s.anchor, s.head
}

// SelectedText is the selected part of the document, lines joined by
// newlines; "" when nothing is selected.
func (d *MonoDoc) SelectedText() string {
	if !d.sel.active || d.sel.anchor == d.sel.head {
		return ""
	}
	a, b := d.sel.ordered()
	l := d.Lines
	// Lines dropped from the front since, or gone at the end, are cut off
	// the selection as its tint shows it.
	if a.line < l.First() {
		a = monoPoint{l.First(), 0}
	}
	if last := l.End() - 1; b.line > last {
		b = monoPoint{last, utf8.RuneCountInString(l.Line(last))}
	}
	if b.before(a) {
		return ""
	}
	var out []string
	for n := a.line; n <= b.line; n++ {
		s := l.Line(n)
		from, to := 0, len(s)
		if n == a.line {
			from = runeOffset(s, a.col)
		}
		if n == b.line {
			to = runeOffset(s, b.col)
		}
		out = append(out, s[from:max(from, to)])
	}
	return strings.Join(out, "\n")
}

// ClearSelection drops the selection.
func (d *MonoDoc) ClearSelection() { d.sel = monoSelection{} }

// runeOffset is the byte offset of the col-th rune of s (its length past
// the end).
func runeOffset(s string, col int) int {
	for i := range s {
		if col == 0 {
			return i
		}
		col--
	}
	return len(s)
}

// pointAt is the place of a position in the view: the line under it and
// the column boundary nearest to it.
func (v *MonoView) pointAt(p fyne.Position) monoPoint {
	l := v.doc.Lines
	if v.Cell.Width <= 0 || v.Cell.Height <= 0 {
		return monoPoint{l.First(), 0} // no text measured yet
	}
	line := l.First() + int(p.Y/v.Cell.Height)
	line = min(max(line, l.First()), max(l.End()-1, l.First()))
	x := p.X - v.pad
	if d := v.doc.diff; d != nil {
		x -= float32(d.gutterCells()) * v.Cell.Width
	}
	col := max(0, int(x/v.Cell.Width+0.5))
	return monoPoint{line, min(col, utf8.RuneCountInString(l.Line(line)))}
}

// MouseDown starts a selection, or with Shift moves its end.
func (v *MonoView) MouseDown(ev *desktop.MouseEvent) {
	if ev.Button != desktop.MouseButtonPrimary || v.doc.Lines.Count() == 0 {
		return
	}
	p := v.pointAt(ev.Position)
	if ev.Modifier&fyne.KeyModifierShift != 0 && v.doc.sel.active {
		v.doc.sel.head = p
	} else {
		v.doc.sel = monoSelection{anchor: p, head: p, active: true}
		if v.OnSelectStart != nil {
			v.OnSelectStart(v.doc)
		}
	}
	v.syncRows()
	canvas.Refresh(v)
}

func (v *MonoView) MouseUp(*desktop.MouseEvent) {}

// Dragged moves the selection's end with the pointer.
func (v *MonoView) Dragged(ev *fyne.DragEvent) {
	if !v.doc.sel.active {
		return
	}
	if p := v.pointAt(ev.Position); p != v.doc.sel.head {
		v.doc.sel.head = p
		v.syncRows()
		canvas.Refresh(v)
	}
}

func (v *MonoView) DragEnd() {}

// DoubleTapped selects the word under the pointer (letters, digits and
// what joins them in paths and names: _ - . /).
func (v *MonoView) DoubleTapped(ev *fyne.PointEvent) {
	if v.doc.Lines.Count() == 0 {
		return
	}
	p := v.pointAt(ev.Position)
	runes := []rune(v.doc.Lines.Line(p.line))
	word := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-./", r)
	}
	from, to := min(p.col, len(runes)), min(p.col, len(runes))
	for from > 0 && word(runes[from-1]) {
		from--
	}
	for to < len(runes) && word(runes[to]) {
		to++
	}
	v.doc.sel = monoSelection{anchor: monoPoint{p.line, from}, head: monoPoint{p.line, to}, active: true}
	if v.OnSelectStart != nil {
		v.OnSelectStart(v.doc)
	}
	v.syncRows()
	canvas.Refresh(v)
}

// Cursor is the text cursor: the output is text to select.
func (v *MonoView) Cursor() desktop.Cursor { return desktop.TextCursor }

// selectionRects tints the selected part of each visible row, behind its
// text.
func (v *MonoView) selectionRects(x float32) {
	for i := range v.rows {
		r := &v.rows[i]
		from, to, ok := v.selectedCols(r.n)
		if !ok {
			if r.sel != nil {
				v.spareBg = append(v.spareBg, r.sel)
				r.sel = nil
			}
			continue
		}
		if r.sel == nil {
			r.sel = v.takeRect()
		}
		if r.sel.FillColor != v.selBg {
			r.sel.FillColor = v.selBg
			r.sel.Refresh()
		}
		y := float32(r.n-v.doc.Lines.First()) * v.Cell.Height
		r.sel.Move(fyne.NewPos(x+float32(from)*v.Cell.Width, y))
		r.sel.Resize(fyne.NewSize(float32(to-from)*v.Cell.Width, v.Cell.Height))
		v.objects = append(v.objects, r.sel)
	}
}

// selectedCols is the selected columns of line n: a line selected up to
// its end reaches one cell past it, so that its newline shows selected.
func (v *MonoView) selectedCols(n int) (from, to int, ok bool) {
	s := v.doc.sel
	if !s.active || s.anchor == s.head {
		return 0, 0, false
	}
	a, b := s.ordered()
	if n < a.line || n > b.line {
		return 0, 0, false
	}
	width := utf8.RuneCountInString(v.doc.Lines.Line(n))
	from, to = 0, width+1
	if n == a.line {
		from = a.col
	}
	if n == b.line {
		to = b.col
	}
	return from, to, to > from
}

func (v *MonoView) selectionColor() {
	v.selBg = v.Theme().Color(theme.ColorNameSelection, fyne.CurrentApp().Settings().ThemeVariant())
}
