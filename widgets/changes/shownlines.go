package changes

import (
	"strings"
	"unicode/utf8"
)

// maxLineCells is the longest line drawn, in cells: a minified file's
// one line of a megabyte would otherwise be one text texture as wide.
const maxLineCells = 1000

// tabWidth is the chat's code blocks' tab stop.
const tabWidth = 4

// shownLines is lines as the view draws them: tabs expanded, long lines
// cut at maxLineCells, control characters (drawn as boxes) as spaces.
// Lines that need none of it share their text with the input.
func shownLines(lines []Line) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = l
		if needsCleaning(l.Text) {
			out[i].Text = cleanLine(l.Text)
		}
	}
	return out
}

func needsCleaning(s string) bool {
	if len(s) > maxLineCells {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// cleanLine expands tabs, blanks other control characters and cuts the
// line at maxLineCells.
func cleanLine(s string) string {
	var b strings.Builder
	cells := 0
	for _, r := range s {
		if cells >= maxLineCells {
			break
		}
		switch {
		case r == '\t':
			n := tabWidth - cells%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			cells += n
			continue
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			r = ' '
		}
		b.WriteRune(r)
		cells++
	}
	return b.String()
}

// cellsOf is how many cells a shown line takes (one a rune).
func cellsOf(s string) int { return utf8.RuneCountInString(s) }
