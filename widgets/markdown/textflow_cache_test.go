package markdown

import (
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/widgets/widgettest"
)

func TestMeasureWordMatchesMeasureText(t *testing.T) {
	a := widgettest.NewTestApp(t)
	bold := fyne.TextStyle{Bold: true}
	for _, s := range []fyne.TextStyle{{}, bold, {Monospace: true}} {
		for _, w := range []string{"handler", "the", " ", "  ", "`x`", "résumé"} {
			for range 2 { // measured, then cached
				if got, want := measureWord(appTheme(), w, 14, s), fyne.MeasureText(w, 14, s).Width; got != want {
					t.Fatalf("measureWord(appTheme(), %q, %v) = %v, want %v", w, s, got, want)
				}
			}
		}
	}
	// Size and style are part of the key.
	if measureWord(appTheme(), "handler", 14, fyne.TextStyle{}) == measureWord(appTheme(), "handler", 28, fyne.TextStyle{}) {
		t.Fatal("size not part of the key")
	}
	// A new app theme (new fonts) empties the cache.
	a.Settings().SetTheme(theme.DefaultTheme())
	measureWord(appTheme(), "handler", 14, bold)
	wordWidths.Lock()
	n := len(wordWidths.m)
	wordWidths.Unlock()
	if n != 1 {
		t.Fatalf("after a theme change the cache holds %d words, want 1", n)
	}
}

// A word's width from its characters and pairs is what shaping the whole
// word gives: to the pixel for Latin text with kerning and ligatures, and
// within half a pixel for scripts that shape by context.
func TestMeasurePairsMatchesShaping(t *testing.T) {
	widgettest.NewTestApp(t)
	latin := strings.Fields(widgettest.LongAnswer(2000) + " Typography AVATAR WAVE office ffi flow Tokyo fjord naïve Ünïcödé 12345 word99999 LT.Va, T. P.A. — “quoted” (paren)")
	other := strings.Fields("東京 עברית مرحبا Привет Ελληνικά")
	for _, st := range []fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Monospace: true}} {
		for _, w := range latin {
			if got, want := measurePairs(appTheme(), w, 14, st), fyne.MeasureText(w, 14, st).Width; math.Abs(float64(got-want)) > 0.01 {
				t.Errorf("%q %+v: %v, shaped whole %v", w, st, got, want)
			}
		}
		for _, w := range other {
			if got, want := measurePairs(appTheme(), w, 14, st), fyne.MeasureText(w, 14, st).Width; math.Abs(float64(got-want)) > 0.5 {
				t.Errorf("%q %+v: %v, shaped whole %v", w, st, got, want)
			}
		}
	}
}
