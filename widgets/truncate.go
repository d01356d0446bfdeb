package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
)

// truncateLimit is as many bytes as a one-line preview is ever measured
// over: no screen is wider, and shaping (and Fyne's cache of every text it
// measured) costs what the text's length does.
const truncateLimit = 2048

// truncateText shortens text to fit width, ending it with "…" when cut.
func truncateText(text string, width, size float32, style fyne.TextStyle) string {
	if len(text) > truncateLimit {
		text = text[:utf8Floor(text, truncateLimit)] + "…"
	}
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

// firstTextLine is the first non-blank line of text, for collapsed previews,
// cut to truncateLimit bytes. It looks only as far as that line.
func firstTextLine(text string) string {
	for text != "" {
		l := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if len(l) > truncateLimit {
			l = l[:utf8Floor(l, truncateLimit)]
		}
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
