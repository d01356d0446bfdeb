package kit

import (
	"math"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/internal/nth"
)

// Limits of what a monoLines keeps. Output beyond them is counted, not drawn:
// a tool can print megabytes and the sidebar must stay light.
const (
	monoMaxLines     = 2000
	monoMaxLineRunes = 500  // wider lines end in "…"; canvas.Text draws a line as one texture
	monoMaxTailBytes = 8192 // an unterminated line (a progress bar) is kept to this much
	monoTabWidth     = 4
)

// MonoLines holds plain text as display lines for monoView. It is fed the
// whole text so far on every update (tool output is cumulative) and works out
// what is new, so an update costs the size of what was added, not of the
// whole output.
//
// Lines are numbered from the start of the stream: line n stays line n when
// older lines are cut, so a view can keep what it drew for it.
type MonoLines struct {
	max int

	complete []string // cleaned, terminated lines; complete[0] is line dropped
	tailRaw  string   // the unterminated last line, raw, so later text can continue it
	tail     string   // tailRaw cleaned
	dropped  int      // lines cut from the front
	Cols     int      // widest line seen, in cells; only grows until reset

	// Ver changes whenever the lines do, so a view can skip an update of
	// a card whose output did not change.
	Ver uint64

	src      string // the text last consumed
	srcStart int    // stream offset of src[0]: bytes the producer cut before it
	Fed      bool
}

func NewMonoLines() *MonoLines {
	return &MonoLines{max: monoMaxLines}
}

// Set makes the buffer show out, whose first byte is at stream offset start
// (the number of leading bytes the producer already dropped). It reports
// whether out merely continued what was there, in which case only the new
// part was processed.
func (b *MonoLines) Set(out string, start int) (appended bool) {
	if b.Fed && start >= b.srcStart {
		oldEnd := b.srcStart + len(b.src)
		overlap := oldEnd - start
		if overlap >= 0 && overlap <= len(out) && out[:overlap] == b.src[start-b.srcStart:] {
			b.src, b.srcStart = out, start
			if overlap < len(out) {
				// Cloned so that kept lines never pin the producer's
				// string, of which a new copy arrives on every update.
				b.write(strings.Clone(out[overlap:]))
			}
			return true
		}
	}
	b.Reset()
	b.Fed = true
	b.src, b.srcStart = out, start
	b.write(strings.Clone(out))
	return false
}

// SetText replaces everything with text; for one-off content such as a
// stderr tail.
func (b *MonoLines) SetText(text string) {
	b.Reset()
	b.Fed = true
	b.src = text
	b.write(strings.Clone(text))
}

// Reset drops every line, keeping the limit; Ver still grows, so views see
// the change.
func (b *MonoLines) Reset() {
	*b = MonoLines{max: b.max, Ver: b.Ver + 1}
}

// write appends raw text after what is there.
func (b *MonoLines) write(s string) {
	if s == "" {
		return
	}
	b.Ver++
	if n := strings.Count(s, "\n"); n > b.max {
		// All that was kept and the first n-max new lines would be cut
		// anyway: count them without cleaning them.
		skip := n - b.max
		cut := nth.IndexByte(s, '\n', skip)
		b.dropped += len(b.complete) + skip
		b.complete = b.complete[:0]
		b.tailRaw, b.tail = "", ""
		s = s[cut+1:]
	}
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		b.continueTail(s[:i])
		b.complete = append(b.complete, b.tail)
		b.tailRaw, b.tail = "", ""
		s = s[i+1:]
	}
	if s != "" {
		b.continueTail(s)
	}
	b.enforceCap()
}

// continueTail adds text without a newline to the unterminated line.
func (b *MonoLines) continueTail(s string) {
	if s == "" && b.tailRaw == "" {
		b.tail = ""
		return
	}
	raw := b.tailRaw + s
	// A carriage return not at the very end starts the line over, as in a
	// terminal; progress bars print that way. One at the end may be the
	// first half of CRLF.
	if i := strings.LastIndexByte(raw[:len(raw)-1], '\r'); len(raw) > 1 && i >= 0 {
		raw = raw[i+1:]
	}
	if len(raw) > monoMaxTailBytes {
		raw = raw[:utf8Floor(raw, monoMaxTailBytes)]
	}
	b.tailRaw = raw
	b.tail = CleanMonoLine(strings.TrimSuffix(raw, "\r"))
	b.Cols = max(b.Cols, CellWidth(b.tail))
}

func (b *MonoLines) enforceCap() {
	if over := len(b.complete) - b.max; over > 0 {
		b.dropped += over
		b.complete = b.complete[over:]
		// Re-slicing walks the backing array forward; copy now and then so
		// the cut lines can be freed.
		if cap(b.complete) > 2*b.max {
			b.complete = append(make([]string, 0, b.max+b.max/4), b.complete...)
		}
	}
}

// First is the number of the first line kept.
func (b *MonoLines) First() int { return b.dropped }

// End is one past the number of the last line.
func (b *MonoLines) End() int {
	n := b.dropped + len(b.complete)
	if b.tailRaw != "" {
		n++
	}
	return n
}

// Count is the number of lines kept.
func (b *MonoLines) Count() int { return b.End() - b.dropped }

// Line returns line n, which must be in [first, end).
func (b *MonoLines) Line(n int) string {
	i := n - b.dropped
	if i < len(b.complete) {
		return b.complete[i]
	}
	return b.tail
}

// String returns the kept lines joined by newlines.
func (b *MonoLines) String() string {
	var sb strings.Builder
	for n := b.First(); n < b.End(); n++ {
		if n > b.First() {
			sb.WriteByte('\n')
		}
		sb.WriteString(b.Line(n))
	}
	return sb.String()
}

// CleanMonoLine turns one line of program output into text canvas.Text can
// draw: terminal escape sequences removed, tabs expanded, other control
// characters dropped, and very long lines shortened.
func CleanMonoLine(s string) string {
	simple := len(s) <= monoMaxLineRunes
	for i := 0; simple && i < len(s); i++ {
		c := s[i]
		simple = c >= 0x20 && c < 0x7f
	}
	if simple {
		return s
	}
	var sb strings.Builder
	sb.Grow(min(len(s), monoMaxLineRunes*2))
	col := 0
	for i := 0; i < len(s); {
		if col >= monoMaxLineRunes {
			sb.WriteRune('…')
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == '\t':
			n := monoTabWidth - col%monoTabWidth
			sb.WriteString("    "[:n])
			col += n
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// dropped
		case r == utf8.RuneError && size == 1:
			sb.WriteRune('\uFFFD')
			col++
		default:
			sb.WriteRune(r)
			col++
		}
		i += size
	}
	return sb.String()
}

// escapeLen is the length of the terminal escape sequence at the start of s
// (which starts with ESC): CSI ("ESC [ … final"), OSC ("ESC ] … BEL or ST")
// or a two-byte escape.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}

// CellWidth counts runes: near enough to monospace cells for sizing.
func CellWidth(s string) int {
	return utf8.RuneCountInString(s)
}

// utf8Floor returns the largest index ≤ n that starts a rune in s.
func utf8Floor(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// MonoLineHeight is the height of a line of monospace text at the theme
// size name: whole pixels, so rows neither overlap nor leave seams, and one
// more than the font's height, so descenders of the last visible line are
// not clipped by the scroll.
func MonoLineHeight(th fyne.Theme, size fyne.ThemeSizeName) float32 {
	h := fyne.MeasureText("M", th.Size(size), fyne.TextStyle{Monospace: true}).Height
	return float32(math.Ceil(float64(h))) + 1
}
