package widgets

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// monoDoc is a text shown by a monoView together with how it was last
// viewed, so that a view recycled for another card, and later given this
// one back, shows it where the user left it.
type monoDoc struct {
	lines *monoLines
	// follow keeps the view at the last line as lines arrive; scrolling up
	// turns it off, scrolling back to the end turns it on.
	follow bool
	offset fyne.Position
}

func newMonoDoc() *monoDoc {
	return &monoDoc{lines: newMonoLines(), follow: true}
}

// monoView draws a monoDoc in a monospace font with one canvas.Text per
// visible line. Lines are placed by their stream number, so when text is
// appended or the view scrolls, lines already drawn keep their text object
// and only lines coming into view are set.
type monoView struct {
	widget.BaseWidget

	doc    *monoDoc
	scroll *syncScroll // nil when the view is not scrolled

	textSize  fyne.ThemeSizeName
	colorName fyne.ThemeColorName

	cell    fyne.Size
	pad     float32
	fg      color.Color
	size    float32
	rows    []monoRow
	spare   []*canvas.Text
	objects []fyne.CanvasObject

	// textSets counts how often a row's text was set; tests use it to show
	// that an append sets only the new lines.
	textSets int
}

type monoRow struct {
	n    int
	text *canvas.Text
}

func newMonoView(doc *monoDoc) *monoView {
	v := &monoView{doc: doc, textSize: theme.SizeNameCaptionText, colorName: theme.ColorNameForeground}
	v.ExtendBaseWidget(v)
	return v
}

// setDoc shows another document, restoring where it was scrolled to.
func (v *monoView) setDoc(doc *monoDoc) {
	if v.doc == doc {
		return
	}
	v.doc = doc
	for _, r := range v.rows {
		v.spare = append(v.spare, r.text)
	}
	v.rows = v.rows[:0]
	v.objects = v.objects[:0]
	if s := v.scroll; s != nil {
		s.Offset = doc.offset
		s.Refresh()
		if doc.follow {
			s.ScrollToBottom()
		}
		return
	}
	v.Refresh()
}

// changed tells the view its document's lines changed.
func (v *monoView) changed() {
	s := v.scroll
	if s == nil {
		v.Refresh()
		return
	}
	s.Refresh()
	if v.doc.follow {
		s.ScrollToBottom()
	}
}

func (v *monoView) CreateRenderer() fyne.WidgetRenderer {
	v.updateMetrics()
	return &monoViewRenderer{v: v}
}

func (v *monoView) updateMetrics() {
	th := v.Theme()
	size := fyne.MeasureText("M", th.Size(v.textSize), fyne.TextStyle{Monospace: true})
	// Rounded up: a cell a fraction too narrow would clip the end of the
	// widest line.
	v.cell = fyne.NewSize(float32(math.Ceil(float64(size.Width))), monoLineHeight(th, v.textSize))
	// Horizontal padding only: the owner pads above and below, outside the
	// scroll, so that the first visible line is never cut in half.
	v.pad = th.Size(theme.SizeNameInnerPadding) / 2
	v.fg = th.Color(v.colorName, fyne.CurrentApp().Settings().ThemeVariant())
	v.size = th.Size(v.textSize)
}

// monoLineHeight is the height of a line of monospace text at the theme
// size name: whole pixels, so rows neither overlap nor leave seams, and one
// more than the font's height, so descenders of the last visible line are
// not clipped by the scroll.
func monoLineHeight(th fyne.Theme, size fyne.ThemeSizeName) float32 {
	h := fyne.MeasureText("M", th.Size(size), fyne.TextStyle{Monospace: true}).Height
	return float32(math.Ceil(float64(h))) + 1
}

// contentSize is the size of all kept lines, drawn or not.
func (v *monoView) contentSize() fyne.Size {
	l := v.doc.lines
	return fyne.NewSize(float32(l.cols)*v.cell.Width+2*v.pad, float32(l.count())*v.cell.Height)
}

// syncRows makes the text objects match the visible lines.
func (v *monoView) syncRows() {
	l := v.doc.lines
	top, height := float32(0), v.Size().Height
	if v.scroll != nil {
		top, height = v.scroll.Offset.Y, v.scroll.Size().Height
	}
	from := l.first() + int(math.Floor(float64(top/v.cell.Height)))
	to := l.first() + int(math.Ceil(float64((top+height)/v.cell.Height)))
	from, to = max(from, l.first()), min(to, l.end())

	kept := v.rows[:0]
	for _, r := range v.rows {
		if r.n >= from && r.n < to {
			kept = append(kept, r)
		} else {
			v.spare = append(v.spare, r.text)
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
	for _, r := range v.rows {
		t := r.text
		if s := l.line(r.n); t.Text != s || t.Color != v.fg || t.TextSize != v.size {
			t.Text, t.Color, t.TextSize = s, v.fg, v.size
			v.textSets++
			t.Refresh()
		}
		t.Move(fyne.NewPos(v.pad, float32(r.n-l.first())*v.cell.Height))
		t.Resize(fyne.NewSize(float32(cellWidth(t.Text))*v.cell.Width, v.cell.Height))
		v.objects = append(v.objects, t)
	}
}

func (v *monoView) hasRow(n, upTo int) bool {
	for _, r := range v.rows[:upTo] {
		if r.n == n {
			return true
		}
	}
	return false
}

func (v *monoView) takeText() *canvas.Text {
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

// newMonoScroll wraps v in a scroll that keeps v's rows in step.
func newMonoScroll(v *monoView) *syncScroll {
	v.scroll = newSyncScroll(v, container.ScrollBoth, v.syncRows)
	v.scroll.OnScrolled = v.scrolled
	return v.scroll
}

// scrolled follows a move of the offset, by the user or by clamping: draws
// what came into view and remembers where the text was left, and whether
// at its end. (Layout passes that leave the offset alone must not decide
// that: a view laid out before it is scrolled to the end is not one the
// user scrolled away from it.)
func (v *monoView) scrolled(p fyne.Position) {
	if s := v.scroll; s != nil && s.Size().Height > 0 {
		v.doc.offset = p
		v.doc.follow = p.Y >= v.contentSize().Height-s.Size().Height-1
	}
	v.syncRows()
}

type monoViewRenderer struct {
	v *monoView
}

func (r *monoViewRenderer) Destroy() {}

func (r *monoViewRenderer) Layout(fyne.Size) { r.v.syncRows() }

func (r *monoViewRenderer) MinSize() fyne.Size { return r.v.contentSize() }

func (r *monoViewRenderer) Objects() []fyne.CanvasObject { return r.v.objects }

func (r *monoViewRenderer) Refresh() {
	old := r.v.cell
	r.v.updateMetrics()
	r.v.syncRows()
	if old != r.v.cell {
		canvas.Refresh(r.v)
	}
}

// syncScroll is a Scroll that tells its owner whenever the offset may have
// moved. Resize, Refresh and ScrollToBottom can move it without calling
// OnScrolled (when the content comes to fit, the offset snaps back to zero
// silently), and a virtualized content must then draw what came into view.
//
// Wheel movement it cannot use (the content is at its end, or fits) goes to
// parent, so a pointer resting on a card's output does not stop the sidebar
// from scrolling.
type syncScroll struct {
	container.Scroll
	sync   func()
	parent fyne.Scrollable
}

func newSyncScroll(content fyne.CanvasObject, dir container.ScrollDirection, sync func()) *syncScroll {
	s := &syncScroll{sync: sync}
	s.Direction = dir
	s.Content = content
	s.OnScrolled = func(fyne.Position) { sync() }
	s.ExtendBaseWidget(s)
	return s
}

func (s *syncScroll) Scrolled(ev *fyne.ScrollEvent) {
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

func (s *syncScroll) Resize(size fyne.Size) {
	s.Scroll.Resize(size)
	s.sync()
}

func (s *syncScroll) Refresh() {
	s.Scroll.Refresh()
	s.sync()
}

func (s *syncScroll) ScrollToBottom() {
	s.Scroll.ScrollToBottom()
	s.sync()
}
