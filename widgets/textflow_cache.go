package widgets

import (
	"strings"
	"sync"

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
// appTheme(), looked up once by the caller.
func measureWord(th fyne.Theme, text string, size float32, style fyne.TextStyle) float32 {
	if len(text) > wordWidthsMaxLen {
		return fyne.MeasureText(text, size, style).Width
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
	w = fyne.MeasureText(text, size, style).Width
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
