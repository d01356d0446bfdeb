package markdown

import (
	"math"
	"time"

	"fyne.io/fyne/v2"
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

// flowPiece is the part of one span that lands on one line: layout numbers
// only. Objects are made from it for the lines on screen (textflow_draw.go).
type flowPiece struct {
	span       *InlineSpan
	Si         int32 // the span's index
	Start, End int
	x, y, w    float32
	m          *fontMetric
}

// flowLine is one laid-out line: its box and its pieces.
type flowLine struct {
	Y, H   float32
	P0, P1 int32
}

// spaceRun is whitespace waiting to see whether the next word fits on the
// line; at a line break it is dropped.
type spaceRun struct {
	span       *InlineSpan
	Start, end int
	w          float32
}

// flowBuilder breaks spans into lines for one width. Each word is measured
// once; pieces of the same span on a line are merged into one.
//
// It can stop after a number of lines and go on later from where it
// stopped (more): a text of megabytes is laid out in bounded steps, and a
// collapsed one only as far as it is shown.
type flowBuilder struct {
	th          fyne.Theme
	appTh       fyne.Theme // for measuring text
	maxW        float32    // 0 or less: never wrap
	align       fyne.TextAlign
	measureOnly bool

	baseSize float32
	codePad  float32
	lineGap  float32
	metrics  []*fontMetric

	spans []InlineSpan
	// si and pos are where layout goes on: span si, byte pos of its text.
	si, pos int
	// stopAt is the line count at which run stops; 0 means never.
	stopAt int
	// enough stops a measureOnly run once the widest line reaches it.
	enough float32
	// until, when set, also stops the run once it has passed, at the next
	// line: measuring words never seen before costs microseconds each,
	// and a text of megabytes of them must not hold the UI for seconds.
	until time.Time

	Lines  []flowLine
	Pieces []flowPiece
	line   []flowPiece
	space  *spaceRun
	// spaceBuf holds what space points at, to spare an allocation a word.
	spaceBuf spaceRun
	x, y     float32
	nlines   int
	widest   float32
	done     bool
}

func newFlowBuilder(th fyne.Theme, spans []InlineSpan, maxW float32, align fyne.TextAlign, measureOnly bool) *flowBuilder {
	return &flowBuilder{
		th: th, appTh: appTheme(), spans: spans, maxW: maxW, align: align, measureOnly: measureOnly,
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

func (b *flowBuilder) spanMetric(s *InlineSpan) *fontMetric {
	size := b.baseSize
	if s.Size != "" {
		size = b.th.Size(s.Size)
	}
	return b.metric(size, s.Style)
}

func (b *flowBuilder) pad(s *InlineSpan) float32 {
	if s.code {
		return b.codePad
	}
	return 0
}

// run lays out until the text ends or stopAt lines are done, reporting
// whether the text ended.
func (b *flowBuilder) run() bool {
	for b.si < len(b.spans) {
		s := &b.spans[b.si]
		if !b.add(s) {
			return false
		}
		b.si++
		b.pos = 0
	}
	if !b.done {
		if len(b.line) > 0 {
			b.flushLine(b.line[0].m)
		}
		b.done = true
	}
	return true
}

// full says whether layout must stop before what comes next.
func (b *flowBuilder) full() bool {
	if b.measureOnly {
		return b.enough > 0 && b.widest >= b.enough
	}
	return b.stopAt > 0 && b.nlines >= b.stopAt && len(b.line) == 0
}

// add lays out span s from b.pos; false means it stopped inside it.
func (b *flowBuilder) add(s *InlineSpan) bool {
	m := b.spanMetric(s)
	text := s.Text
	for i := b.pos; i < len(text); {
		if b.full() {
			b.pos = i
			return false
		}
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
				w := measureWord(b.appTh, text[i:j], m.size, s.Style)
				b.spaceBuf = spaceRun{span: s, Start: i, end: j, w: w}
				b.space = &b.spaceBuf
			}
			i = j
		default:
			j := i
			for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' {
				j++
			}
			if stopped := b.word(s, m, i, j); stopped >= 0 {
				b.pos = stopped
				return false
			}
			i = j
		}
	}
	return true
}

// word places text[start:end] of s, wrapping before it when it does not
// fit. It returns where it stopped inside the word, or -1 once placed.
func (b *flowBuilder) word(s *InlineSpan, m *fontMetric, start, end int) int {
	if end-start > longRun {
		return b.longWord(s, m, start, end)
	}
	w := measureWord(b.appTh, s.Text[start:end], m.size, s.Style)
	if b.maxW > 0 && len(b.line) > 0 && b.rightEdgeWith(s, start, w) > b.maxW {
		b.space = nil
		b.flushLine(m)
		if b.full() {
			return start
		}
	}
	if b.maxW > 0 && len(b.line) == 0 && w+2*b.pad(s) > b.maxW {
		return b.breakWord(s, m, start, end)
	}
	b.Place(s, m, start, end, w)
	return -1
}

// rightEdgeWith is where the line would end if the pending space and a word
// of width w from span s were added.
func (b *flowBuilder) rightEdgeWith(s *InlineSpan, start int, w float32) float32 {
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
func (b *flowBuilder) continues(s *InlineSpan, start int) bool {
	if len(b.line) == 0 {
		return false
	}
	last := &b.line[len(b.line)-1]
	if last.span != s {
		return false
	}
	if b.space != nil {
		return b.space.span == s && last.End == b.space.Start && b.space.end == start
	}
	return last.End == start
}

func (b *flowBuilder) Place(s *InlineSpan, m *fontMetric, start, end int, w float32) {
	if b.continues(s, start) {
		last := &b.line[len(b.line)-1]
		if b.space != nil {
			last.w += b.space.w
		}
		last.End = end
		last.w += w
		b.space = nil
		b.x = last.x + last.w + b.pad(s)
		return
	}
	if b.space != nil {
		if last := &b.line[len(b.line)-1]; last.span == b.space.span && last.End == b.space.Start {
			// The space is drawn as part of the run before it, so an
			// underline or strike line has no gap.
			last.End = b.space.end
			last.w += b.space.w
			b.x = last.x + last.w + b.pad(last.span)
		} else {
			b.x += b.space.w
		}
		b.space = nil
	}
	x := b.x + b.pad(s)
	b.line = append(b.line, flowPiece{span: s, Si: int32(b.si), Start: start, End: end, x: x, w: w, m: m})
	b.x = x + w + b.pad(s)
}

// longWord places a run too long to be a word (it may be megabytes),
// measuring it only as far as the line it starts on reaches.
func (b *flowBuilder) longWord(s *InlineSpan, m *fontMetric, start, end int) int {
	avail := b.maxW - b.rightEdgeWith(s, start, 0)
	if b.maxW <= 0 {
		avail = math.MaxFloat32
		if b.enough > 0 {
			avail = b.enough
		}
	}
	if n, w := fitRunes(b.appTh, s.Text[start:end], m.size, s.Style, avail); n == end-start || b.maxW <= 0 {
		b.Place(s, m, start, start+n, w)
		return -1
	}
	if len(b.line) > 0 {
		b.space = nil
		b.flushLine(m)
		if b.full() {
			return start
		}
	}
	return b.breakWord(s, m, start, end)
}

// breakWord splits a word longer than a line at character boundaries,
// measuring characters, never the whole word (it may be megabytes). It
// returns where it stopped, or -1 once the word is placed.
func (b *flowBuilder) breakWord(s *InlineSpan, m *fontMetric, start, end int) int {
	avail := b.maxW - 2*b.pad(s)
	for start < end {
		n, w := fitRunes(b.appTh, s.Text[start:end], m.size, s.Style, avail)
		b.Place(s, m, start, start+n, w)
		start += n
		if start < end {
			b.flushLine(m)
			if b.full() {
				return start
			}
		}
	}
	return -1
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
	if b.nlines > 0 {
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
		p0 := int32(len(b.Pieces))
		for _, p := range b.line {
			p.x += shift
			p.y = b.y + asc - p.m.baseline
			b.Pieces = append(b.Pieces, p)
		}
		b.Lines = append(b.Lines, flowLine{Y: b.y, H: asc + desc, P0: p0, P1: int32(len(b.Pieces))})
	}
	b.widest = max(b.widest, b.x)
	b.y += asc + desc
	b.nlines++
	b.line = b.line[:0]
	b.x = 0
	if !b.until.IsZero() && b.nlines%16 == 0 && time.Now().After(b.until) {
		b.stopAt = b.nlines
	}
}

// height is the height of the lines laid out so far.
func (b *flowBuilder) height() float32 { return b.y }
