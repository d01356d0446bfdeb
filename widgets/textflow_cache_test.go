package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

func TestMeasureWordMatchesMeasureText(t *testing.T) {
	a := newMDTestApp(t)
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
