package markdown

import (
	"fmt"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// Past CollapseLines lines a text shows only those, with "Show all" under
// them: a paragraph of megabytes (a base64 blob, a minified file, a model
// repeating itself) is rarely read, and laying it out whole costs what its
// length does. Shown whole, it is laid out LayoutStepLines at a time, one
// step per turn of the event loop, so the window keeps answering.
const (
	CollapseLines   = 400
	LayoutStepLines = 4000
	layoutStepTime  = 8 * time.Millisecond
)

// InlineSpan is a run of text that looks the same throughout.
type InlineSpan struct {
	Text  string
	Style fyne.TextStyle
	// Size is empty for body text.
	Size fyne.ThemeSizeName
	// Color is empty for the foreground colour.
	Color  fyne.ThemeColorName
	strike bool
	// code is inline code: monospace on a tinted background.
	code bool
	// link is a destination opened when the text is tapped.
	link string
}

// TextFlow draws styled spans with word wrapping.
//
// Fyne's RichText measures every candidate line break by shaping the whole
// remaining paragraph, has no strikethrough and keeps links unbreakable;
// this flow measures each word once and draws one canvas.Text per run of a
// line. Layout keeps numbers only (flowLine, flowPiece); objects exist for
// the lines in the window (see window.go), so a paragraph thousands of
// lines long costs a screenful of objects.
type TextFlow struct {
	widget.BaseWidget
	Spans []InlineSpan
	align fyne.TextAlign
	links *linkOpener
	foldable

	valid  bool
	laidW  float32
	stamp  kit.LookStamp
	Layout *flowBuilder
	ver    uint64

	lineWindow
	drawn   kit.DrawnLines
	objects []fyne.CanvasObject

	// The selection and search matches, in bytes of selText, and what
	// selText is made of.
	Marks    Marks
	fullText *string
	bases    []int
}

// NewTextFlow is a flow of styled spans whose links open through links.
func NewTextFlow(spans []InlineSpan, links *linkOpener) *TextFlow {
	f := &TextFlow{Spans: spans, links: links, lineWindow: lineWindow{win: kit.Everything}}
	f.ExtendBaseWidget(f)
	return f
}

// NewPlainFlow is a flow of one unstyled span, for text that is never markup.
func NewPlainFlow(text string, style fyne.TextStyle, size fyne.ThemeSizeName, col fyne.ThemeColorName) *TextFlow {
	return NewTextFlow([]InlineSpan{{Text: text, Style: style, Size: size, Color: col}}, nil)
}

// SetSpans replaces the text; the caller refreshes when it is on screen.
func (f *TextFlow) SetSpans(spans []InlineSpan) {
	f.Spans = spans
	f.valid = false
	f.fullText, f.bases = nil, nil
}

func (f *TextFlow) CreateRenderer() fyne.WidgetRenderer {
	return &kit.WidthRenderer{W: f}
}

// Invalidate drops the kept layout.
func (f *TextFlow) Invalidate() { f.valid = false }

func (f *TextFlow) HeightAt(width float32) float32 {
	f.LayoutAt(width)
	h := f.Layout.height()
	if f.More {
		h += f.showAllGap() + f.ShowAllButton().MinSize().Height
	}
	return h
}

func (f *TextFlow) showAllGap() float32 { return f.Theme().Size(theme.SizeNamePadding) }

// NaturalWidth is the width the text needs to fit without wrapping; upTo
// stops measuring once it is reached (0: measure all).
func (f *TextFlow) NaturalWidth(upTo float32) float32 {
	b := newFlowBuilder(f.Theme(), f.Spans, 0, f.align, true)
	b.enough = upTo
	b.run()
	return b.widest
}

func (f *TextFlow) LayoutAt(width float32) {
	th := f.Theme()
	st := kit.LookStampOf(th)
	if f.valid && f.laidW == width && f.stamp == st {
		return
	}
	if f.stamp != st {
		f.drawn.Clear() // colours and sizes change: nothing drawn stays
	}
	b := newFlowBuilder(th, f.Spans, width, f.align, false)
	b.stopAt = f.limit()
	if f.expanded {
		b.until = time.Now().Add(layoutStepTime)
	}
	f.laidOut(b.run())
	f.Layout = b
	f.laidW, f.stamp, f.valid = width, st, true
	f.ver++
	if f.Pending {
		f.scheduleStep(b)
	}
}

// scheduleStep lays out the next LayoutStepLines of b on a later turn of
// the event loop, unless the layout was redone meanwhile.
func (f *TextFlow) scheduleStep(b *flowBuilder) {
	kit.Later(func() {
		if f.Layout != b || !f.Pending {
			return
		}
		b.stopAt = b.nlines + LayoutStepLines
		b.until = time.Now().Add(layoutStepTime)
		f.Pending = !b.run()
		f.ver++
		if f.Pending {
			f.scheduleStep(b)
		}
		f.grew(f.Refresh)
	})
}

// expand shows the whole text.
func (f *TextFlow) expand() {
	f.expanded = true
	f.valid = false
	if w := f.Size().Width; w > 0 {
		f.LayoutAt(w)
	}
	f.grew(f.Refresh)
}

func (f *TextFlow) ShowAllButton() *kit.MiniButton { return f.button(f.expand) }

// SetWindow implements windowed.
func (f *TextFlow) SetWindow(top, bottom float32) {
	if f.moveTo(top, bottom, f.ver) {
		f.Draw()
	}
}

// Draw brings the drawn lines in line with the layout and the window.
func (f *TextFlow) Draw() {
	f.objects = f.objects[:0]
	if f.Layout == nil || f.win.Empty() {
		f.drawn.Clear()
		f.drawnVer = f.ver
		return
	}
	lines := f.Layout.Lines
	first := sort.Search(len(lines), func(i int) bool { return lines[i].Y+lines[i].H > f.win.Top })
	last := first
	for last < len(lines) && lines[last].Y < f.win.Bottom {
		last++
	}
	f.drawn.Sync(first, last, f)
	f.drawnVer = f.ver
	f.objects = f.selectionRects(f.objects, first, last)
	f.objects = f.drawn.AppendTo(f.objects)
	if f.More {
		b := f.ShowAllButton()
		kit.SetMiniLabel(b, fmt.Sprintf("Show all (%s more)", kit.ByteSize(f.leftOver())))
		bs := b.MinSize()
		y := f.Layout.height() + f.showAllGap()
		b.Move(fyne.NewPos(0, y))
		b.Resize(bs)
		if f.win.Reaches(y, bs.Height) {
			f.objects = append(f.objects, b)
		}
	}
}

// leftOver is how many bytes of text the collapsed flow does not show.
func (f *TextFlow) leftOver() int {
	b := f.Layout
	n := 0
	for i := b.si; i < len(f.Spans); i++ {
		n += len(f.Spans[i].Text)
	}
	return n - b.pos
}

// LineSig implements lineSource.
func (f *TextFlow) LineSig(i int) uint64 {
	l := f.Layout.Lines[i]
	h := kit.NewSigHash().F32(l.H)
	for _, p := range f.Layout.Pieces[l.P0:l.P1] {
		s := p.span
		h = h.Str(s.Text[p.Start:p.End]).F32(p.x).F32(p.y - l.Y).F32(p.w).F32(p.m.size).
			Num(styleBits(s.Style)).Str(string(s.Color)).Str(s.link).Flag(s.code).Flag(s.strike)
	}
	return uint64(h)
}

// lineTop implements lineSource.
// DrawnObjects are what the flow draws now: the lines in its window and
// their selection highlights.
func (f *TextFlow) DrawnObjects() []fyne.CanvasObject { return f.objects }

func (f *TextFlow) LineTop(i int) float32 { return f.Layout.Lines[i].Y }

// BuildLine implements lineSource.
func (f *TextFlow) BuildLine(i int) []fyne.CanvasObject {
	l := f.Layout.Lines[i]
	var objs []fyne.CanvasObject
	for k := range f.Layout.Pieces[l.P0:l.P1] {
		objs = f.emit(objs, &f.Layout.Pieces[int(l.P0)+k])
	}
	return objs
}

// emit makes the objects of one piece: its text, and the tint of inline
// code or the line of strikethrough.
func (f *TextFlow) emit(objs []fyne.CanvasObject, p *flowPiece) []fyne.CanvasObject {
	th := f.Layout.th
	s := p.span
	colName := s.Color
	if colName == "" {
		colName = theme.ColorNameForeground
		if s.link != "" {
			colName = theme.ColorNameHyperlink
		}
	}
	col := kit.ResolveColor(th, colName)
	text := s.Text[p.Start:p.End]
	if s.code {
		pad := f.Layout.codePad
		bg := canvas.NewRectangle(kit.WithAlpha(kit.ResolveColor(th, theme.ColorNameForeground), 0x1c))
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
		t := &canvas.Text{Text: text, Color: col, TextSize: p.m.size, TextStyle: s.Style}
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
