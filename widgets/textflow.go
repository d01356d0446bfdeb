package widgets

import (
	"fmt"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Past collapseLines lines a text shows only those, with "Show all" under
// them: a paragraph of megabytes (a base64 blob, a minified file, a model
// repeating itself) is rarely read, and laying it out whole costs what its
// length does. Shown whole, it is laid out layoutStepLines at a time, one
// step per turn of the event loop, so the window keeps answering.
const (
	collapseLines   = 400
	layoutStepLines = 4000
	layoutStepTime  = 8 * time.Millisecond
)

// inlineSpan is a run of text that looks the same throughout.
type inlineSpan struct {
	text  string
	style fyne.TextStyle
	// size is empty for body text.
	size fyne.ThemeSizeName
	// color is empty for the foreground colour.
	color  fyne.ThemeColorName
	strike bool
	// code is inline code: monospace on a tinted background.
	code bool
	// link is a destination opened when the text is tapped.
	link string
}

// textFlow draws styled spans with word wrapping.
//
// Fyne's RichText measures every candidate line break by shaping the whole
// remaining paragraph, has no strikethrough and keeps links unbreakable;
// this flow measures each word once and draws one canvas.Text per run of a
// line. Layout keeps numbers only (flowLine, flowPiece); objects exist for
// the lines in the window (see window.go), so a paragraph thousands of
// lines long costs a screenful of objects.
type textFlow struct {
	widget.BaseWidget
	spans []inlineSpan
	align fyne.TextAlign
	links *linkOpener
	foldable

	valid  bool
	laidW  float32
	stamp  lookStamp
	layout *flowBuilder
	ver    uint64

	lineWindow
	drawn   drawnLines
	objects []fyne.CanvasObject

	// The selection and search matches, in bytes of selText, and what
	// selText is made of.
	marks    marks
	fullText *string
	bases    []int
}

func newTextFlow(spans []inlineSpan, links *linkOpener) *textFlow {
	f := &textFlow{spans: spans, links: links, lineWindow: lineWindow{win: everything}}
	f.ExtendBaseWidget(f)
	return f
}

// newPlainFlow is a flow of one unstyled span, for text that is never markup.
func newPlainFlow(text string, style fyne.TextStyle, size fyne.ThemeSizeName, col fyne.ThemeColorName) *textFlow {
	return newTextFlow([]inlineSpan{{text: text, style: style, size: size, color: col}}, nil)
}

// setSpans replaces the text; the caller refreshes when it is on screen.
func (f *textFlow) setSpans(spans []inlineSpan) {
	f.spans = spans
	f.valid = false
	f.fullText, f.bases = nil, nil
}

func (f *textFlow) CreateRenderer() fyne.WidgetRenderer {
	return &textFlowRenderer{f: f}
}

func (f *textFlow) heightAt(width float32) float32 {
	f.layoutAt(width)
	h := f.layout.height()
	if f.more {
		h += f.showAllGap() + f.showAllButton().MinSize().Height
	}
	return h
}

func (f *textFlow) showAllGap() float32 { return f.Theme().Size(theme.SizeNamePadding) }

// naturalWidth is the width the text needs to fit without wrapping; upTo
// stops measuring once it is reached (0: measure all).
func (f *textFlow) naturalWidth(upTo float32) float32 {
	b := newFlowBuilder(f.Theme(), f.spans, 0, f.align, true)
	b.enough = upTo
	b.run()
	return b.widest
}

func (f *textFlow) layoutAt(width float32) {
	th := f.Theme()
	st := lookStampOf(th)
	if f.valid && f.laidW == width && f.stamp == st {
		return
	}
	if f.stamp != st {
		f.drawn.clear() // colours and sizes change: nothing drawn stays
	}
	b := newFlowBuilder(th, f.spans, width, f.align, false)
	b.stopAt = f.limit()
	if f.expanded {
		b.until = time.Now().Add(layoutStepTime)
	}
	f.laidOut(b.run())
	f.layout = b
	f.laidW, f.stamp, f.valid = width, st, true
	f.ver++
	if f.pending {
		f.scheduleStep(b)
	}
}

// scheduleStep lays out the next layoutStepLines of b on a later turn of
// the event loop, unless the layout was redone meanwhile.
func (f *textFlow) scheduleStep(b *flowBuilder) {
	later(func() {
		if f.layout != b || !f.pending {
			return
		}
		b.stopAt = b.nlines + layoutStepLines
		b.until = time.Now().Add(layoutStepTime)
		f.pending = !b.run()
		f.ver++
		if f.pending {
			f.scheduleStep(b)
		}
		f.grew(f.Refresh)
	})
}

// expand shows the whole text.
func (f *textFlow) expand() {
	f.expanded = true
	f.valid = false
	if w := f.Size().Width; w > 0 {
		f.layoutAt(w)
	}
	f.grew(f.Refresh)
}

func (f *textFlow) showAllButton() *miniButton { return f.button(f.expand) }

// setWindow implements windowed.
func (f *textFlow) setWindow(top, bottom float32) {
	if f.moveTo(top, bottom, f.ver) {
		f.draw()
	}
}

// draw brings the drawn lines in line with the layout and the window.
func (f *textFlow) draw() {
	f.objects = f.objects[:0]
	if f.layout == nil || f.win.empty() {
		f.drawn.clear()
		f.drawnVer = f.ver
		return
	}
	lines := f.layout.lines
	first := sort.Search(len(lines), func(i int) bool { return lines[i].y+lines[i].h > f.win.top })
	last := first
	for last < len(lines) && lines[last].y < f.win.bottom {
		last++
	}
	f.drawn.sync(first, last, f)
	f.drawnVer = f.ver
	f.objects = f.selectionRects(f.objects, first, last)
	f.objects = f.drawn.appendTo(f.objects)
	if f.more {
		b := f.showAllButton()
		setMiniLabel(b, fmt.Sprintf("Show all (%s more)", byteSize(f.leftOver())))
		bs := b.MinSize()
		y := f.layout.height() + f.showAllGap()
		b.Move(fyne.NewPos(0, y))
		b.Resize(bs)
		if f.win.reaches(y, bs.Height) {
			f.objects = append(f.objects, b)
		}
	}
}

// leftOver is how many bytes of text the collapsed flow does not show.
func (f *textFlow) leftOver() int {
	b := f.layout
	n := 0
	for i := b.si; i < len(f.spans); i++ {
		n += len(f.spans[i].text)
	}
	return n - b.pos
}

// lineSig implements lineSource.
func (f *textFlow) lineSig(i int) uint64 {
	l := f.layout.lines[i]
	h := newSigHash().f32(l.h)
	for _, p := range f.layout.pieces[l.p0:l.p1] {
		s := p.span
		h = h.str(s.text[p.start:p.end]).f32(p.x).f32(p.y - l.y).f32(p.w).f32(p.m.size).
			num(styleBits(s.style)).str(string(s.color)).str(s.link).flag(s.code).flag(s.strike)
	}
	return uint64(h)
}

// lineTop implements lineSource.
func (f *textFlow) lineTop(i int) float32 { return f.layout.lines[i].y }

// buildLine implements lineSource.
func (f *textFlow) buildLine(i int) []fyne.CanvasObject {
	l := f.layout.lines[i]
	var objs []fyne.CanvasObject
	for k := range f.layout.pieces[l.p0:l.p1] {
		objs = f.emit(objs, &f.layout.pieces[int(l.p0)+k])
	}
	return objs
}

// emit makes the objects of one piece: its text, and the tint of inline
// code or the line of strikethrough.
func (f *textFlow) emit(objs []fyne.CanvasObject, p *flowPiece) []fyne.CanvasObject {
	th := f.layout.th
	s := p.span
	colName := s.color
	if colName == "" {
		colName = theme.ColorNameForeground
		if s.link != "" {
			colName = theme.ColorNameHyperlink
		}
	}
	col := resolveColor(th, colName)
	text := s.text[p.start:p.end]
	if s.code {
		pad := f.layout.codePad
		bg := canvas.NewRectangle(withAlpha(resolveColor(th, theme.ColorNameForeground), 0x1c))
		bg.CornerRadius = th.Size(theme.SizeNameSelectionRadius)
		bg.Move(fyne.NewPos(p.x-pad, p.y))
		bg.Resize(fyne.NewSize(p.w+2*pad, p.m.height))
		objs = append(objs, bg)
	}
	size := fyne.NewSize(p.w, p.m.height)
	if s.link != "" {
		l := newLinkText(text, s.link, col, p.m, f.links)
		l.Move(fyne.NewPos(p.x, p.y))
		l.Resize(size)
		objs = append(objs, l)
	} else {
		t := &canvas.Text{Text: text, Color: col, TextSize: p.m.size, TextStyle: s.style}
		t.Move(fyne.NewPos(p.x, p.y))
		t.Resize(size)
		objs = append(objs, t)
	}
	if s.strike {
		line := canvas.NewRectangle(col)
		line.Move(fyne.NewPos(p.x, p.y+p.m.baseline*0.64))
		line.Resize(fyne.NewSize(p.w, 1))
		objs = append(objs, line)
	}
	return objs
}

func styleBits(s fyne.TextStyle) uint64 {
	var b uint64
	for i, on := range []bool{s.Bold, s.Italic, s.Monospace, s.Symbol, s.Underline} {
		if on {
			b |= 1 << i
		}
	}
	return b | uint64(s.TabWidth)<<8
}

type textFlowRenderer struct {
	f *textFlow
}

func (r *textFlowRenderer) Layout(size fyne.Size) {
	r.f.layoutAt(size.Width)
	r.f.draw()
}

func (r *textFlowRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.f.heightAt(r.f.Size().Width))
}

func (r *textFlowRenderer) Refresh() {
	r.f.valid = false
	if w := r.f.Size().Width; w > 0 { // else laid out when given a size
		r.f.layoutAt(w)
		r.f.draw()
		canvas.Refresh(r.f)
	}
}

func (r *textFlowRenderer) Objects() []fyne.CanvasObject {
	return r.f.objects
}

func (r *textFlowRenderer) Destroy() {}
