package changes

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// drawMargin is how many lines above and below the view have objects too,
// so that a small scroll shows lines already drawn.
const drawMargin = 8

// diffBody is the scrolled content of a DiffView: as tall as all its lines,
// with objects only for those in view.
type diffBody struct {
	widget.BaseWidget
	v *DiffView

	m       diffMetrics
	stamp   kit.LookStamp
	valid   bool
	gen     uint64 // bumps when the lines or the look change
	maxCell int    // the widest shown line, in cells
	maxNum  int    // the largest line number

	hl      highlights
	shown   kit.DrawnLines
	objects []fyne.CanvasObject
	drawing bool
}

// diffMetrics are the sizes and colours lines are drawn with.
type diffMetrics struct {
	cell           fyne.Size
	textSize, rowH float32
	pad            float32
	digits         float32 // cells of the widest line number
	oldRight       float32 // where the old numbers end (right-aligned)
	newRight       float32
	signX, textX   float32

	fg, dim, added, removed, addBg, delBg, band, bandText, selection color.Color
	empty, divider                                                   color.Color
}

var _ fyne.Tappable = (*diffBody)(nil)

func newDiffBody(v *DiffView) *diffBody {
	b := &diffBody{v: v}
	b.ExtendBaseWidget(b)
	return b
}

// reset forgets what was drawn and lexed, for new lines or actions.
func (b *diffBody) reset() {
	b.gen++
	b.valid = false
	b.shown.Clear()
	b.objects = b.objects[:0]
	b.maxCell, b.maxNum = 0, 0
	for _, l := range b.v.lines {
		b.maxCell = max(b.maxCell, shownCells(l.Text))
		b.maxNum = max(b.maxNum, l.Old, l.New)
	}
	b.hl.reset(len(b.v.lines))
}

// measure works out the metrics for the current look.
func (b *diffBody) measure() {
	th := b.v.Theme()
	st := kit.LookStampOf(th)
	if b.valid && b.stamp == st {
		return
	}
	if b.valid { // the look changed: colours and sizes of every line
		b.gen++
		b.shown.Clear()
		b.hl.reset(len(b.v.lines))
	}
	m := &b.m
	m.textSize = th.Size(theme.SizeNameText)
	m.cell, _ = fyne.CurrentApp().Driver().RenderedTextSize("M", m.textSize, fyne.TextStyle{Monospace: true}, nil)
	m.rowH = float32(int(m.cell.Height + 2))
	m.pad = th.Size(theme.SizeNameInnerPadding) / 2
	digits := float32(max(len(strconv.Itoa(b.maxNum)), 3))
	m.digits = digits
	m.oldRight = m.pad + digits*m.cell.Width
	m.newRight = m.oldRight + m.cell.Width + digits*m.cell.Width
	m.signX = m.newRight + m.cell.Width
	m.textX = m.signX + 1.5*m.cell.Width
	m.fg = kit.ResolveColor(th, theme.ColorNameForeground)
	m.dim = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	m.added = kit.ResolveColor(th, theme.ColorNameSuccess)
	m.removed = kit.ResolveColor(th, theme.ColorNameError)
	m.addBg = kit.Tint(m.added, 0x2a)
	m.delBg = kit.Tint(m.removed, 0x2a)
	m.band = kit.Tint(kit.ResolveColor(th, theme.ColorNamePrimary), 0x24)
	m.bandText = kit.ResolveColor(th, theme.ColorNamePrimary)
	m.selection = kit.ResolveColor(th, theme.ColorNameSelection)
	m.empty = kit.Tint(kit.ResolveColor(th, theme.ColorNameDisabled), 0x18)
	m.divider = kit.ResolveColor(th, theme.ColorNameSeparator)
	b.stamp, b.valid = st, true
}

func (b *diffBody) MinSize() fyne.Size {
	b.measure()
	m := &b.m
	height := float32(b.v.rowCount()) * m.rowH
	if b.v.split { // cut at the halves' edges: as wide as the view
		return fyne.NewSize(0, height)
	}
	return fyne.NewSize(m.textX+float32(b.maxCell)*m.cell.Width+2*m.pad, height)
}

// draw gives objects to the lines in view and a margin around, reusing
// those already drawn.
func (b *diffBody) draw() {
	if b.drawing {
		return
	}
	view := b.v.scroll.Size()
	if b.v.rowCount() == 0 || b.v.note.Text != "" || view.Height <= 0 {
		b.shown.Clear()
		b.objects = b.objects[:0]
		return
	}
	b.measure()
	top := b.v.scroll.Offset.Y
	first := max(int(top/b.m.rowH)-drawMargin, 0)
	last := min(int((top+view.Height)/b.m.rowH)+1+drawMargin, b.v.rowCount())
	b.drawing = true
	b.lexAround(first, last)
	b.shown.Sync(first, max(first, last), b)
	b.drawing = false
	b.objects = b.shown.AppendTo(b.objects[:0])
	kit.RequestFrame(b)
}

// LineSig implements kit's lineSource; its lines are the view's rows.
func (b *diffBody) LineSig(r int) uint64 {
	lo, hi := b.v.rowLines(r)
	h := kit.NewSigHash().Num(b.gen).F32(b.Size().Width).Flag(b.hl.ready(lo)).Flag(b.hl.ready(hi)).Flag(b.v.sel.has(r))
	if b.v.lines[lo].Kind == '@' { // its buttons keep to the view's right edge
		h = h.F32(b.v.scroll.Offset.X).F32(b.v.scroll.Size().Width)
	}
	return uint64(h)
}

// LineTop implements kit's lineSource: every line is as tall.
func (b *diffBody) LineTop(i int) float32 { return float32(i) * b.m.rowH }

// lineArea is where a line is drawn: the whole row, or one half of a
// side-by-side row.
type lineArea struct {
	x, w               float32 // the band
	oldRight, newRight float32 // the number columns' right edges, 0 for none
	signX, textX       float32
	cols               int // text cells that fit, 0 for no limit
}

func (b *diffBody) wholeRow() lineArea {
	m := &b.m
	return lineArea{w: b.Size().Width, oldRight: m.oldRight, newRight: m.newRight, signX: m.signX, textX: m.textX}
}

// half is the left (old) or right (new) half of a side-by-side row.
func (b *diffBody) half(right bool) lineArea {
	m := &b.m
	w := b.Size().Width / 2
	a := lineArea{w: w}
	if right {
		a.x = w
	}
	num := a.x + m.pad + m.digits*m.cell.Width
	if right {
		a.newRight = num
	} else {
		a.oldRight = num
	}
	a.signX = num + m.cell.Width
	a.textX = a.signX + 1.5*m.cell.Width
	a.cols = max(int((a.x+w-m.pad-a.textX)/m.cell.Width), 1)
	return a
}

// BuildLine implements kit's lineSource: row r's selection band, then its
// line, or its two lines side by side.
func (b *diffBody) BuildLine(r int) []fyne.CanvasObject {
	y := b.LineTop(r)
	var objs []fyne.CanvasObject
	if b.v.sel.has(r) { // under the lines' own bands, which tint it
		sel := canvas.NewRectangle(b.m.selection)
		sel.Move(fyne.NewPos(0, y))
		sel.Resize(fyne.NewSize(b.Size().Width, b.m.rowH))
		objs = append(objs, sel)
	}
	if !b.v.split {
		return b.buildLine(objs, r, y, b.wholeRow())
	}
	row := b.v.rows[r]
	if k := b.v.lines[max(row.left, row.right)].Kind; k == '@' || k == '\\' {
		return b.buildLine(objs, row.left, y, b.wholeRow())
	}
	// The halves' divider, and the side facing nothing greyed.
	w := b.Size().Width / 2
	for k, line := range []int{row.left, row.right} {
		if line < 0 {
			empty := canvas.NewRectangle(b.m.empty)
			empty.Move(fyne.NewPos(float32(k)*w, y))
			empty.Resize(fyne.NewSize(w, b.m.rowH))
			objs = append(objs, empty)
		}
	}
	divider := canvas.NewRectangle(b.m.divider)
	divider.Move(fyne.NewPos(w, y))
	divider.Resize(fyne.NewSize(1, b.m.rowH))
	objs = append(objs, divider)
	if row.left >= 0 {
		objs = b.buildLine(objs, row.left, y, b.half(false))
	}
	if row.right >= 0 {
		objs = b.buildLine(objs, row.right, y, b.half(true))
	}
	return objs
}

// buildLine adds line i's band, numbers, sign and coloured text, drawn in
// area a of the row at y, to objs.
func (b *diffBody) buildLine(objs []fyne.CanvasObject, i int, y float32, a lineArea) []fyne.CanvasObject {
	m := &b.m
	l := b.v.lines[i]
	l.Text = b.v.shown.text(i)
	band := func(c color.Color) {
		r := canvas.NewRectangle(c)
		r.Move(fyne.NewPos(a.x, y))
		r.Resize(fyne.NewSize(a.w, m.rowH))
		objs = append(objs, r)
	}
	text := func(s string, x float32, c color.Color, style fyne.TextStyle) {
		style.Monospace = true
		t := &canvas.Text{Text: s, Color: c, TextSize: m.textSize, TextStyle: style}
		t.Move(fyne.NewPos(x, y+1))
		t.Resize(fyne.NewSize(float32(cellsOf(s))*m.cell.Width, m.cell.Height))
		objs = append(objs, t)
	}
	number := func(n int, right float32) {
		if n > 0 && right > 0 {
			s := strconv.Itoa(n)
			text(s, right-float32(len(s))*m.cell.Width, m.dim, fyne.TextStyle{})
		}
	}
	switch l.Kind {
	case '@':
		band(m.band)
		text(l.Text, m.pad, m.bandText, fyne.TextStyle{})
		return append(objs, b.hunkButtons(l.Hunk, y)...)
	case '\\':
		text(l.Text, a.textX, m.dim, fyne.TextStyle{Italic: true})
		return objs
	case '+':
		band(m.addBg)
		text("+", a.signX, m.added, fyne.TextStyle{})
	case '-':
		band(m.delBg)
		text("-", a.signX, m.removed, fyne.TextStyle{})
	}
	number(l.Old, a.oldRight)
	number(l.New, a.newRight)
	runs := b.hl.runsOf(i)
	if runs == nil {
		if l.Text != "" {
			text(cutCells(l.Text, a.cols), a.textX, m.fg, fyne.TextStyle{})
		}
		return objs
	}
	col := 0
	for _, r := range runs {
		if a.cols > 0 && col >= a.cols {
			break
		}
		if r.Color != nil {
			s := r.Text
			if a.cols > 0 {
				s = cutCells(s, a.cols-col)
			}
			text(s, a.textX+float32(col)*m.cell.Width, r.Color, fyne.TextStyle{Italic: r.Italic})
		}
		col += cellsOf(r.Text)
	}
	return objs
}

// hunkButtons are the action buttons of hunk's header row at y, kept to
// the right edge of the view whatever the sideways scroll.
func (b *diffBody) hunkButtons(hunk int, y float32) []fyne.CanvasObject {
	labels := b.v.labels
	objs := make([]fyne.CanvasObject, 0, len(labels))
	x := b.v.scroll.Offset.X + b.v.scroll.Size().Width - b.m.pad
	for k := len(labels) - 1; k >= 0; k-- {
		label := labels[k]
		btn := kit.NewMiniLinkButton(label, func() {
			if f := b.v.OnHunkAction; f != nil {
				f(hunk, label)
			}
		})
		s := btn.MinSize()
		s.Height = min(s.Height, b.m.rowH)
		x -= s.Width
		btn.Move(fyne.NewPos(x, y+(b.m.rowH-s.Height)/2))
		btn.Resize(s)
		x -= b.m.pad
		objs = append(objs, btn)
	}
	return objs
}

// Tapped gives the view the keyboard.
func (b *diffBody) Tapped(*fyne.PointEvent) { b.v.focus() }

func (b *diffBody) CreateRenderer() fyne.WidgetRenderer { return &diffBodyRenderer{b: b} }

type diffBodyRenderer struct{ b *diffBody }

func (r *diffBodyRenderer) Layout(fyne.Size)             { r.b.draw() }
func (r *diffBodyRenderer) MinSize() fyne.Size           { return r.b.MinSize() }
func (r *diffBodyRenderer) Refresh()                     { r.b.draw() }
func (r *diffBodyRenderer) Objects() []fyne.CanvasObject { return r.b.objects }
func (r *diffBodyRenderer) Destroy()                     {}
