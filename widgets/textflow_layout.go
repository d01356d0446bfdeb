package widgets

import (
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// fontMetric is what line layout needs from a font: its line height and
// where the baseline sits in it.
type fontMetric struct {
	size     float32
	style    fyne.TextStyle
	height   float32
	baseline float32
}

// flowPiece is the part of one span that lands on one line.
type flowPiece struct {
	span       *inlineSpan
	start, end int
	x, w       float32
	m          *fontMetric
}

// spaceRun is whitespace waiting to see whether the next word fits on the
// line; at a line break it is dropped.
type spaceRun struct {
	span       *inlineSpan
	start, end int
	w          float32
}

// flowBuilder breaks spans into lines for one width. Each word is measured
// once; pieces of the same span on a line become one canvas object.
type flowBuilder struct {
	th          fyne.Theme
	appTh       fyne.Theme // for measuring text
	maxW        float32    // 0 or less: never wrap
	align       fyne.TextAlign
	links       *linkOpener
	measureOnly bool

	baseSize float32
	codePad  float32
	lineGap  float32
	metrics  []*fontMetric

	objects []fyne.CanvasObject
	line    []flowPiece
	space   *spaceRun
	// spaceBuf holds what space points at, to spare an allocation a word.
	spaceBuf spaceRun
	x, y     float32
	lines    int
	widest   float32
}

func newFlowBuilder(th fyne.Theme, maxW float32, align fyne.TextAlign, links *linkOpener, measureOnly bool) *flowBuilder {
	return &flowBuilder{
		th: th, appTh: appTheme(), maxW: maxW, align: align, links: links, measureOnly: measureOnly,
		baseSize: th.Size(theme.SizeNameText),
		codePad:  th.Size(theme.SizeNamePadding) - 1,
		lineGap:  th.Size(theme.SizeNameLineSpacing) / 2,
	}
}

func (b *flowBuilder) metric(size float32, style fyne.TextStyle) *fontMetric {
	for _, m := range b.metrics {
		if m.size == size && m.style == style {
			return m
		}
	}
	s, base := fyne.CurrentApp().Driver().RenderedTextSize("M", size, style, nil)
	m := &fontMetric{size: size, style: style, height: s.Height, baseline: base}
	b.metrics = append(b.metrics, m)
	return m
}

func (b *flowBuilder) spanMetric(s *inlineSpan) *fontMetric {
	size := b.baseSize
	if s.size != "" {
		size = b.th.Size(s.size)
	}
	return b.metric(size, s.style)
}

func (b *flowBuilder) pad(s *inlineSpan) float32 {
	if s.code {
		return b.codePad
	}
	return 0
}

// add lays out one span after what is already placed.
func (b *flowBuilder) add(s *inlineSpan) {
	m := b.spanMetric(s)
	text := s.text
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == '\n':
			b.space = nil
			b.flushLine(m)
			i++
		case c == ' ' || c == '\t':
			j := i
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if len(b.line) > 0 {
				w := measureWord(b.appTh, text[i:j], m.size, s.style)
				b.spaceBuf = spaceRun{span: s, start: i, end: j, w: w}
				b.space = &b.spaceBuf
			}
			i = j
		default:
			j := i
			for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' {
				j++
			}
			b.word(s, m, i, j)
			i = j
		}
	}
}

// word places text[start:end] of s, wrapping before it when it does not fit.
func (b *flowBuilder) word(s *inlineSpan, m *fontMetric, start, end int) {
	w := measureWord(b.appTh, s.text[start:end], m.size, s.style)
	if b.maxW > 0 && len(b.line) > 0 && b.rightEdgeWith(s, start, w) > b.maxW {
		b.space = nil
		b.flushLine(m)
	}
	if b.maxW > 0 && len(b.line) == 0 && w+2*b.pad(s) > b.maxW {
		b.breakWord(s, m, start, end)
		return
	}
	b.place(s, m, start, end, w)
}

// rightEdgeWith is where the line would end if the pending space and a word
// of width w from span s were added.
func (b *flowBuilder) rightEdgeWith(s *inlineSpan, start int, w float32) float32 {
	x := b.x
	if b.space != nil {
		x += b.space.w
	}
	if !b.continues(s, start) {
		x += 2 * b.pad(s)
	}
	return x + w
}

// continues says whether text at start of s extends the last piece, so it
// shares its canvas object (and its code background).
func (b *flowBuilder) continues(s *inlineSpan, start int) bool {
	if len(b.line) == 0 {
		return false
	}
	last := &b.line[len(b.line)-1]
	if last.span != s {
		return false
	}
	if b.space != nil {
		return b.space.span == s && last.end == b.space.start && b.space.end == start
	}
	return last.end == start
}

func (b *flowBuilder) place(s *inlineSpan, m *fontMetric, start, end int, w float32) {
	if b.continues(s, start) {
		last := &b.line[len(b.line)-1]
		if b.space != nil {
			last.w += b.space.w
		}
		last.end = end
		last.w += w
		b.space = nil
		b.x = last.x + last.w + b.pad(s)
		return
	}
	if b.space != nil {
		if last := &b.line[len(b.line)-1]; last.span == b.space.span && last.end == b.space.start {
			// The space is drawn as part of the run before it, so an
			// underline or strike line has no gap.
			last.end = b.space.end
			last.w += b.space.w
			b.x = last.x + last.w + b.pad(last.span)
		} else {
			b.x += b.space.w
		}
		b.space = nil
	}
	x := b.x + b.pad(s)
	b.line = append(b.line, flowPiece{span: s, start: start, end: end, x: x, w: w, m: m})
	b.x = x + w + b.pad(s)
}

// breakWord splits a word longer than a line at character boundaries.
func (b *flowBuilder) breakWord(s *inlineSpan, m *fontMetric, start, end int) {
	avail := b.maxW - 2*b.pad(s)
	for start < end {
		cut := b.fitPrefix(s, m, start, end, avail)
		w := fyne.MeasureText(s.text[start:cut], m.size, s.style).Width
		b.place(s, m, start, cut, w)
		start = cut
		if start < end {
			b.flushLine(m)
		}
	}
}

// fitPrefix finds the longest prefix of text[start:end] (at least one rune)
// no wider than avail.
func (b *flowBuilder) fitPrefix(s *inlineSpan, m *fontMetric, start, end int, avail float32) int {
	var cuts []int
	for i := start; i < end; {
		_, n := utf8.DecodeRuneInString(s.text[i:end])
		i += n
		cuts = append(cuts, i)
	}
	lo, hi := 0, len(cuts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(s.text[start:cuts[mid]], m.size, s.style).Width <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cuts[lo]
}

// flushLine ends the current line; m sizes a line with no text on it.
func (b *flowBuilder) flushLine(m *fontMetric) {
	asc, desc := m.baseline, m.height-m.baseline
	if len(b.line) > 0 {
		asc, desc = 0, 0
		for _, p := range b.line {
			asc = max(asc, p.m.baseline)
			desc = max(desc, p.m.height-p.m.baseline)
		}
	}
	if b.lines > 0 {
		b.y += b.lineGap
	}
	shift := float32(0)
	if b.maxW > 0 {
		switch b.align {
		case fyne.TextAlignCenter:
			shift = (b.maxW - b.x) / 2
		case fyne.TextAlignTrailing:
			shift = b.maxW - b.x
		}
	}
	if !b.measureOnly {
		for i := range b.line {
			b.emit(&b.line[i], shift, b.y+asc-b.line[i].m.baseline)
		}
	}
	b.widest = max(b.widest, b.x)
	b.y += asc + desc
	b.lines++
	b.line = b.line[:0]
	b.x = 0
}

// finish closes the last line and returns the objects and total height.
func (b *flowBuilder) finish() ([]fyne.CanvasObject, float32) {
	if len(b.line) > 0 {
		b.flushLine(b.line[0].m)
	}
	return b.objects, b.y
}

func (b *flowBuilder) emit(p *flowPiece, shift, y float32) {
	s := p.span
	x := p.x + shift
	colName := s.color
	if colName == "" {
		colName = theme.ColorNameForeground
		if s.link != "" {
			colName = theme.ColorNameHyperlink
		}
	}
	col := resolveColor(b.th, colName)
	text := s.text[p.start:p.end]
	if s.code {
		bg := canvas.NewRectangle(withAlpha(resolveColor(b.th, theme.ColorNameForeground), 0x1c))
		bg.CornerRadius = b.th.Size(theme.SizeNameSelectionRadius)
		bg.Move(fyne.NewPos(x-b.codePad, y))
		bg.Resize(fyne.NewSize(p.w+2*b.codePad, p.m.height))
		b.objects = append(b.objects, bg)
	}
	size := fyne.NewSize(p.w, p.m.height)
	if s.link != "" {
		l := newLinkText(text, s.link, col, p.m, b.links)
		l.Move(fyne.NewPos(x, y))
		l.Resize(size)
		b.objects = append(b.objects, l)
	} else {
		t := &canvas.Text{Text: text, Color: col, TextSize: p.m.size, TextStyle: s.style}
		t.Move(fyne.NewPos(x, y))
		t.Resize(size)
		b.objects = append(b.objects, t)
	}
	if s.strike {
		line := canvas.NewRectangle(col)
		line.Move(fyne.NewPos(x, y+p.m.baseline*0.64))
		line.Resize(fyne.NewSize(p.w, 1))
		b.objects = append(b.objects, line)
	}
}
