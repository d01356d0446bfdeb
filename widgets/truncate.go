package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
)

// truncateText shortens text to fit width, ending it with "…" when cut.
func truncateText(text string, width, size float32, style fyne.TextStyle) string {
	if width <= 0 || fyne.MeasureText(text, size, style).Width <= width {
		return text
	}
	runes := []rune(text)
	lo, hi := 0, len(runes)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(string(runes[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.TrimRight(string(runes[:lo]), " ") + "…"
}

// firstTextLine is the first non-blank line of text, for collapsed previews.
func firstTextLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
