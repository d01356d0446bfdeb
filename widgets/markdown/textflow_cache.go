package markdown

import (
	"strings"
	"sync"
	"unicode/utf8"

	"fyne.io/fyne/v2"
)

// wordWidths remembers the measured width of words, so laying a paragraph
// out again (for every streamed update, or at a new width) does not shape
// the words it has shaped before: the same words recur throughout a reply.
//
// The width depends on the text, its size and style and the app theme's
// fonts; the cache is emptied when the app theme changes and when it
// grows past its bound.
var wordWidths = struct {
	sync.Mutex
	th fyne.Theme
	m  map[wordKey]float32
}{m: make(map[wordKey]float32)}

// wordWidthsMax bounds the cache; a long reply has a few thousand distinct
// words.
const wordWidthsMax = 16384

// wordWidthsMaxLen is the longest text cached; longer runs are rare and
// unlikely to recur.
const wordWidthsMaxLen = 64

// longRun is the length past which a run is not shaped whole.
const longRun = 1024

type wordKey struct {
	text  string
	size  float32
	style fyne.TextStyle
}

// appTheme is the theme whose fonts fyne.MeasureText uses.
func appTheme() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil {
		return a.Settings().Theme()
	}
	return nil
}

// measureWord is fyne.MeasureText(text, size, style).Width, cached; th is
// appTheme(), looked up once by the caller. Runs longer than any word
// (longRun) are summed from the widths of their characters instead.
func measureWord(th fyne.Theme, text string, size float32, style fyne.TextStyle) float32 {
	if len(text) > longRun {
		return measureRunes(th, text, size, style)
	}
	if len(text) > wordWidthsMaxLen {
		return measurePairs(th, text, size, style)
	}
	c := &wordWidths
	c.Lock()
	if c.th != th {
		clear(c.m)
		c.th = th
	}
	w, ok := c.m[wordKey{text, size, style}]
	c.Unlock()
	if ok {
		return w
	}
	w = measurePairs(th, text, size, style)
	c.Lock()
	if c.th == th {
		if len(c.m) >= wordWidthsMax {
			clear(c.m)
		}
		// Clone: text is usually a slice of a whole paragraph, which the
		// key must not keep alive.
		c.m[wordKey{strings.Clone(text), size, style}] = w
	}
	c.Unlock()
	return w
}

// Shaping a run of text costs time in proportion to its length, and Fyne
// keeps the size of every text it measured, keyed by the text itself. A
// "word" of megabytes (base64, a minified file, a model stuck on one token)
// must be neither shaped whole nor kept: its width is the sum of its
// characters' advances, each measured once. That ignores kerning between
// letters, which runs that long, wrapped by characters anyway, can afford.
var runeWidths = struct {
	sync.Mutex
	th     fyne.Theme
	tables map[runeFont]*runeTable
}{tables: map[runeFont]*runeTable{}}

type runeFont struct {
	size  float32
	style fyne.TextStyle
}

// runeTable holds the advances of one font: ASCII in an array, the rest
// in a map filled as characters turn up; and what shaping a pair of
// characters adds to their advances (kerning, a ligature), by pair.
type runeTable struct {
	ascii [128]float32
	other map[rune]float32
	pairs map[[2]rune]float32
}

func runeTableFor(th fyne.Theme, size float32, style fyne.TextStyle) *runeTable {
	c := &runeWidths
	c.Lock()
	defer c.Unlock()
	if c.th != th {
		clear(c.tables)
		c.th = th
	}
	k := runeFont{size, style}
	t := c.tables[k]
	if t == nil {
		t = &runeTable{other: map[rune]float32{}, pairs: map[[2]rune]float32{}}
		for r := rune(0x20); r < 0x7f; r++ {
			t.ascii[r] = fyne.MeasureText(string(r), size, style).Width
		}
		c.tables[k] = t
	}
	return t
}

// advance is the width of r; it must be called on the UI goroutine, like
// all measuring.
func (t *runeTable) advance(r rune, size float32, style fyne.TextStyle) float32 {
	if r < 0x80 {
		return t.ascii[r]
	}
	w, ok := t.other[r]
	if !ok {
		w = fyne.MeasureText(string(r), size, style).Width
		t.other[r] = w
	}
	return w
}

// measureRunes is the width of text as the sum of its characters' advances.
func measureRunes(th fyne.Theme, text string, size float32, style fyne.TextStyle) float32 {
	t := runeTableFor(th, size, style)
	w := float32(0)
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			w += t.ascii[c]
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		w += t.advance(r, size, style)
		i += n
	}
	return w
}

// fitRunes is how many bytes of text, at least one character's worth, fit
// in avail, and their width.
func fitRunes(th fyne.Theme, text string, size float32, style fyne.TextStyle, avail float32) (int, float32) {
	t := runeTableFor(th, size, style)
	w := float32(0)
	i := 0
	for i < len(text) {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		a := t.advance(r, size, style)
		if i > 0 && w+a > avail {
			break
		}
		w += a
		i += n
	}
	return i, w
}

// Fyne shapes every text it measures with a shaper made for the call,
// compiling its shaping plan each time: some 50-100 µs a word, which a
// reply of new words (numbers, names, identifiers) pays for every one.
// A word's width is instead its characters' advances plus what shaping
// each adjacent pair adds to them, every character and pair measured once
// per font: the same as shaping the word whole wherever shaping works by
// pairs, as kerning and two-letter ligatures do.

// kern is what shaping a and b together adds to their advances.
func (t *runeTable) kern(a, b rune, size float32, style fyne.TextStyle) float32 {
	k, ok := t.pairs[[2]rune{a, b}]
	if !ok {
		k = fyne.MeasureText(string([]rune{a, b}), size, style).Width - t.advance(a, size, style) - t.advance(b, size, style)
		t.pairs[[2]rune{a, b}] = k
	}
	return k
}

// measurePairs is the width of text from its characters and pairs.
func measurePairs(th fyne.Theme, text string, size float32, style fyne.TextStyle) float32 {
	t := runeTableFor(th, size, style)
	w := float32(0)
	prev := rune(-1)
	for _, r := range text {
		w += t.advance(r, size, style)
		if prev >= 0 {
			w += t.kern(prev, r, size, style)
		}
		prev = r
	}
	return w
}
