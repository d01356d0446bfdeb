package tools

import (
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// MonoDoc is a text shown by a monoView together with how it was last
// viewed, so that a view recycled for another card, and later given this
// one back, shows it where the user left it.
type MonoDoc struct {
	Lines *kit.MonoLines
	// Follow keeps the view at the last line as lines arrive; scrolling up
	// turns it off, scrolling back to the end turns it on.
	Follow bool
	offset fyne.Position
	// toTop asks the view to show the start of the text at the next
	// change, once.
	toTop bool

	// sel is the selected text.
	sel monoSelection

	// diff, when set, makes the lines the rows of a diff: marks[i] is
	// line i's kind and number, drawn in a gutter before its text, and
	// added and removed rows are tinted.
	diff *diffDoc
}

// diffDoc is the gutter of a monoDoc showing a diff.
type diffDoc struct {
	marks []diffMark
	// numWidth is the widest line number, in cells.
	numWidth int
}

// gutterCells is the width of the gutter: number, a space, the sign and
// a space.
func (d *diffDoc) gutterCells() int { return d.numWidth + 3 }

func (d *diffDoc) mark(n int) diffMark {
	if n >= 0 && n < len(d.marks) {
		return d.marks[n]
	}
	return diffMark{}
}

// NewMonoDoc is an empty document that follows its last line.
func NewMonoDoc() *MonoDoc {
	return &MonoDoc{Lines: kit.NewMonoLines(), Follow: true}
}

// setDiff makes the document show a diff in the agent's format.
func (d *MonoDoc) setDiff(diff string) {
	marks, texts := diffRows(diff)
	dd := &diffDoc{marks: marks}
	for _, m := range marks {
		dd.numWidth = max(dd.numWidth, len(m.num))
	}
	d.diff = dd
	d.sel = monoSelection{}
	// Every row ends in a newline, so an empty last row is a row too.
	d.Lines.SetText(strings.Join(texts, "\n") + "\n")
}

// setPlain makes the document plain text again, emptied.
func (d *MonoDoc) setPlain() {
	if d.diff != nil {
		d.diff = nil
		d.sel = monoSelection{}
		d.Lines.Reset()
		d.Follow = true
	}
}

// MonoView draws a monoDoc in a monospace font with one canvas.Text per
// visible line. Lines are placed by their stream number, so when text is
// appended or the view scrolls, lines already drawn keep their text object
// and only lines coming into view are set.
type MonoView struct {
	widget.BaseWidget

	doc    *MonoDoc
	scroll *SyncScroll // nil when the view is not scrolled

	// OnSelectStart is called when a selection starts in the view, with
	// its document: the owner drops selections elsewhere.
	OnSelectStart func(*MonoDoc)

	textSize  fyne.ThemeSizeName
	colorName fyne.ThemeColorName

	Cell    fyne.Size
	pad     float32
	fg      color.Color
	size    float32
	rows    []monoRow
	spare   []*canvas.Text
	spareBg []*canvas.Rectangle
	objects []fyne.CanvasObject
	// Diff colours: signs and numbers, and the tints of changed rows;
	// the selection's.
	dim, addFg, delFg, addBg, delBg color.Color
	selBg                           color.Color

	// textSets counts how often a row's text was set; tests use it to show
	// that an append sets only the new lines.
	textSets int
}

type monoRow struct {
	n    int
	text *canvas.Text
	// For a diff: the gutter, and the tint of a changed row; the tint of
	// its selected part.
	gutter *canvas.Text
	bg     *canvas.Rectangle
	sel    *canvas.Rectangle
}

// NewMonoView is a view of doc in caption-sized text.
func NewMonoView(doc *MonoDoc) *MonoView {
	v := &MonoView{doc: doc, textSize: theme.SizeNameCaptionText, colorName: theme.ColorNameForeground}
	v.ExtendBaseWidget(v)
	return v
}

// setDoc shows another document, restoring where it was scrolled to.
func (v *MonoView) setDoc(doc *MonoDoc) {
	if v.doc == doc {
		return
	}
	v.doc = doc
	if doc.toTop {
		doc.toTop = false
		doc.offset = fyne.Position{}
	}
	for _, r := range v.rows {
		v.recycle(r)
	}
	v.rows = v.rows[:0]
	v.objects = v.objects[:0]
	if s := v.scroll; s != nil {
		s.Offset = doc.offset
		s.Refresh()
		if doc.Follow {
			s.ScrollToBottom()
		}
		return
	}
	v.Refresh()
}

// changed tells the view its document's lines changed.
func (v *MonoView) changed() {
	s := v.scroll
	if s == nil {
		v.Refresh()
		return
	}
	if v.doc.toTop {
		v.doc.toTop = false
		s.Offset, v.doc.offset = fyne.Position{}, fyne.Position{}
	}
	s.Refresh()
	if v.doc.Follow {
		s.ScrollToBottom()
	}
}

func (v *MonoView) CreateRenderer() fyne.WidgetRenderer {
	v.updateMetrics()
	return &monoViewRenderer{v: v}
}

func (v *MonoView) updateMetrics() {
	th := v.Theme()
	// The cell is measured once there is text: a view made empty (the
	// banner's stderr tail, hidden unless the agent fails) would otherwise
	// make Fyne parse a monospace font face, with its own copy of the 4 MB
	// emoji font, for nothing. Once measured it follows theme changes.
	if v.doc.Lines.Count() > 0 || v.Cell != (fyne.Size{}) {
		size := fyne.MeasureText("M", th.Size(v.textSize), fyne.TextStyle{Monospace: true})
		// Rounded up: a cell a fraction too narrow would clip the end of
		// the widest line.
		v.Cell = fyne.NewSize(float32(math.Ceil(float64(size.Width))), kit.MonoLineHeight(th, v.textSize))
	}
	// Horizontal padding only: the owner pads above and below, outside the
	// scroll, so that the first visible line is never cut in half.
	v.pad = th.Size(theme.SizeNameInnerPadding) / 2
	vr := fyne.CurrentApp().Settings().ThemeVariant()
	v.fg = th.Color(v.colorName, vr)
	v.size = th.Size(v.textSize)
	v.dim = th.Color(theme.ColorNamePlaceHolder, vr)
	v.addFg, v.delFg = th.Color(theme.ColorNameSuccess, vr), th.Color(theme.ColorNameError, vr)
	v.addBg, v.delBg = kit.WithAlpha(v.addFg, 0x30), kit.WithAlpha(v.delFg, 0x30)
	v.selectionColor()
}

// contentSize is the size of all kept lines, drawn or not.
func (v *MonoView) contentSize() fyne.Size {
	l := v.doc.Lines
	cols := l.Cols
	if d := v.doc.diff; d != nil {
		cols += d.gutterCells()
	}
	return fyne.NewSize(float32(cols)*v.Cell.Width+2*v.pad, float32(l.Count())*v.Cell.Height)
}

// syncRows makes the text objects match the visible lines.
func (v *MonoView) syncRows() {
	l := v.doc.Lines
	top, height := float32(0), v.Size().Height
	if v.scroll != nil {
		top, height = v.scroll.Offset.Y, v.scroll.Size().Height
	}
	from, to := l.First(), l.First() // nothing measured, nothing to show
	if v.Cell.Height > 0 {
		from = l.First() + int(math.Floor(float64(top/v.Cell.Height)))
		to = l.First() + int(math.Ceil(float64((top+height)/v.Cell.Height)))
	}
	from, to = max(from, l.First()), min(to, l.End())

	kept := v.rows[:0]
	for _, r := range v.rows {
		if r.n >= from && r.n < to {
			kept = append(kept, r)
		} else {
			v.recycle(r)
		}
	}
	v.rows = kept
	have := len(v.rows)
	for n := from; n < to; n++ {
		if !v.hasRow(n, have) {
			v.rows = append(v.rows, monoRow{n: n, text: v.takeText()})
		}
	}

	v.objects = v.objects[:0]
	d := v.doc.diff
	x := v.pad
	if d != nil {
		x += float32(d.gutterCells()) * v.Cell.Width
		v.diffRows(d)
	}
	v.selectionRects(x)
	for _, r := range v.rows {
		t := r.text
		fg := v.fg
		if d != nil && d.mark(r.n).kind == diffSkip {
			fg = v.dim
		}
		if s := l.Line(r.n); t.Text != s || t.Color != fg || t.TextSize != v.size {
			t.Text, t.Color, t.TextSize = s, fg, v.size
			v.textSets++
			t.Refresh()
		}
		t.Move(fyne.NewPos(x, float32(r.n-l.First())*v.Cell.Height))
		t.Resize(fyne.NewSize(float32(kit.CellWidth(t.Text))*v.Cell.Width, v.Cell.Height))
		v.objects = append(v.objects, t)
	}
}

// diffRows gives the visible rows of a diff their tints (behind
// everything) and gutters.
func (v *MonoView) diffRows(d *diffDoc) {
	width := max(v.Size().Width, v.contentSize().Width)
	for i := range v.rows {
		r := &v.rows[i]
		m := d.mark(r.n)
		y := float32(r.n-v.doc.Lines.First()) * v.Cell.Height
		var tint color.Color
		switch m.kind {
		case diffAdded:
			tint = v.addBg
		case diffRemoved:
			tint = v.delBg
		}
		if tint == nil {
			if r.bg != nil {
				v.spareBg = append(v.spareBg, r.bg)
				r.bg = nil
			}
		} else {
			if r.bg == nil {
				r.bg = v.takeRect()
			}
			if r.bg.FillColor != tint {
				r.bg.FillColor = tint
				r.bg.Refresh()
			}
			r.bg.Move(fyne.NewPos(0, y))
			r.bg.Resize(fyne.NewSize(width, v.Cell.Height))
			v.objects = append(v.objects, r.bg)
		}
	}
	for i := range v.rows {
		r := &v.rows[i]
		m := d.mark(r.n)
		if m.kind == diffSkip {
			if r.gutter != nil {
				v.spare = append(v.spare, r.gutter)
				r.gutter = nil
			}
			continue
		}
		if r.gutter == nil {
			r.gutter = v.takeText()
		}
		sign, fg := byte(' '), v.dim
		switch m.kind {
		case diffAdded:
			sign, fg = '+', v.addFg
		case diffRemoved:
			sign, fg = '-', v.delFg
		}
		g := strings.Repeat(" ", d.numWidth-len(m.num)) + m.num + " " + string(sign)
		if t := r.gutter; t.Text != g || t.Color != fg || t.TextSize != v.size {
			t.Text, t.Color, t.TextSize = g, fg, v.size
			t.Refresh()
		}
		r.gutter.Move(fyne.NewPos(v.pad, float32(r.n-v.doc.Lines.First())*v.Cell.Height))
		r.gutter.Resize(fyne.NewSize(float32(len(g))*v.Cell.Width, v.Cell.Height))
		v.objects = append(v.objects, r.gutter)
	}
}

// recycle keeps a row's objects for rows coming into view.
func (v *MonoView) recycle(r monoRow) {
	v.spare = append(v.spare, r.text)
	if r.gutter != nil {
		v.spare = append(v.spare, r.gutter)
	}
	if r.bg != nil {
		v.spareBg = append(v.spareBg, r.bg)
	}
	if r.sel != nil {
		v.spareBg = append(v.spareBg, r.sel)
	}
}

func (v *MonoView) takeRect() *canvas.Rectangle {
	if k := len(v.spareBg); k > 0 {
		r := v.spareBg[k-1]
		v.spareBg = v.spareBg[:k-1]
		return r
	}
	return canvas.NewRectangle(nil)
}

func (v *MonoView) hasRow(n, upTo int) bool {
	for _, r := range v.rows[:upTo] {
		if r.n == n {
			return true
		}
	}
	return false
}

func (v *MonoView) takeText() *canvas.Text {
	if k := len(v.spare); k > 0 {
		t := v.spare[k-1]
		v.spare = v.spare[:k-1]
		t.Text = "" // forces a set, which restyles it
		return t
	}
	t := canvas.NewText("", nil)
	t.TextStyle.Monospace = true
	return t
}

// NewMonoScroll wraps v in a scroll that keeps v's rows in step.
func NewMonoScroll(v *MonoView) *SyncScroll {
	v.scroll = newSyncScroll(v, container.ScrollBoth, v.syncRows)
	v.scroll.OnScrolled = v.scrolled
	return v.scroll
}

// scrolled follows a move of the offset, by the user or by clamping: draws
// what came into view and remembers where the text was left, and whether
// at its end. (Layout passes that leave the offset alone must not decide
// that: a view laid out before it is scrolled to the end is not one the
// user scrolled away from it.)
func (v *MonoView) scrolled(p fyne.Position) {
	if s := v.scroll; s != nil && s.Size().Height > 0 {
		v.doc.offset = p
		v.doc.Follow = p.Y >= v.contentSize().Height-s.Size().Height-1
	}
	v.syncRows()
}

type monoViewRenderer struct {
	v *MonoView
}

func (r *monoViewRenderer) Destroy() {}

func (r *monoViewRenderer) Layout(fyne.Size) { r.v.syncRows() }

func (r *monoViewRenderer) MinSize() fyne.Size { return r.v.contentSize() }

func (r *monoViewRenderer) Objects() []fyne.CanvasObject { return r.v.objects }

func (r *monoViewRenderer) Refresh() {
	old := r.v.Cell
	r.v.updateMetrics()
	r.v.syncRows()
	if old != r.v.Cell {
		canvas.Refresh(r.v)
	}
}

// SyncScroll is a Scroll that tells its owner whenever the offset may have
// moved. Resize, Refresh and ScrollToBottom can move it without calling
// OnScrolled (when the content comes to fit, the offset snaps back to zero
// silently), and a virtualized content must then draw what came into view.
//
// Wheel movement it cannot use (the content is at its end, or fits) goes to
// parent, so a pointer resting on a card's output does not stop the sidebar
// from scrolling.
type SyncScroll struct {
	container.Scroll
	sync   func()
	parent fyne.Scrollable
}

func newSyncScroll(content fyne.CanvasObject, dir container.ScrollDirection, sync func()) *SyncScroll {
	s := &SyncScroll{sync: sync}
	s.Direction = dir
	s.Content = content
	s.OnScrolled = func(fyne.Position) { sync() }
	s.ExtendBaseWidget(s)
	return s
}

func (s *SyncScroll) Scrolled(ev *fyne.ScrollEvent) {
	d := ev.Scrolled
	content := s.Content.MinSize()
	switch {
	case d.DY > 0 && s.Offset.Y > 0,
		d.DY < 0 && s.Offset.Y < content.Height-s.Size().Height:
		s.Scroll.Scrolled(&fyne.ScrollEvent{PointEvent: ev.PointEvent, Scrolled: fyne.Delta{DY: d.DY}})
	case d.DX != 0 && content.Width > s.Size().Width && s.Direction != container.ScrollVerticalOnly:
		s.Scroll.Scrolled(&fyne.ScrollEvent{PointEvent: ev.PointEvent, Scrolled: fyne.Delta{DX: d.DX}})
	case s.parent != nil:
		s.parent.Scrolled(ev)
	}
}

func (s *SyncScroll) Resize(size fyne.Size) {
	s.Scroll.Resize(size)
	s.sync()
}

func (s *SyncScroll) Refresh() {
	s.Scroll.Refresh()
	s.sync()
}

// ScrollToBottom scrolls as Scroll does and keeps the view in step.
func (s *SyncScroll) ScrollToBottom() {
	s.Scroll.ScrollToBottom()
	s.sync()
}
