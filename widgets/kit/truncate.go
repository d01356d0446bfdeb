package kit

import (
	"strings"

	"fyne.io/fyne/v2"
)

// truncateLimit is as many bytes as a one-line preview is ever measured
// over: no screen is wider, and shaping (and Fyne's cache of every text it
// measured) costs what the text's length does.
const truncateLimit = 2048

// TruncateText shortens text to fit width, ending it with "…" when cut.
func TruncateText(text string, width, size float32, style fyne.TextStyle) string {
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

// FirstTextLine is the first non-blank line of text, for collapsed previews,
// cut to truncateLimit bytes. It looks only as far as that line.
func FirstTextLine(text string) string {
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

// WrapPlain breaks plain text into lines that fit width: at spaces where it
// can, inside a word where it must. Past maxLines the last line ends in "…".
// Control characters are dropped: canvas.Text would draw them as boxes.
func WrapPlain(text string, width, size float32, style fyne.TextStyle, maxLines int) []string {
	width = max(width, 1) // before the first layout; maxLines bounds the work
	fits := func(s string) bool { return fyne.MeasureText(s, size, style).Width <= width }
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, strings.TrimSpace(text))
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		if len(lines) > maxLines {
			break
		}
		cur := ""
		for _, w := range strings.Fields(para) {
			if len(lines) > maxLines {
				break
			}
			if cand := strings.TrimPrefix(cur+" "+w, " "); fits(cand) {
				cur = cand
				continue
			}
			if cur != "" {
				lines = append(lines, cur)
			}
			for w != "" && !fits(w) && len(lines) <= maxLines {
				n := fitPrefix(w, fits)
				lines = append(lines, w[:n])
				w = w[n:]
			}
			cur = w
		}
		lines = append(lines, cur)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = FitText(lines[maxLines-1]+"…", width, size, style)
	}
	return lines
}

// fitPrefix is the byte length of the longest prefix of w that fits, at
// least one rune so that wrapping always moves on.
func fitPrefix(w string, fits func(string) bool) int {
	r := []rune(w)
	lo, hi := 1, len(r) // r[:lo] is taken even when it does not fit
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(string(r[:mid])) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return len(string(r[:lo]))
}
