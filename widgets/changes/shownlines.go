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

// shownTexts are the lines' texts as the view draws them: tabs expanded,
// long lines cut at maxLineCells, control characters (drawn as boxes) as
// spaces. Each is made when its line is first drawn or lexed, so that Set
// costs nothing a line; lines that need no cleaning share their text.
type shownTexts struct {
	lines []Line
	texts []string
	made  []bool
}

func newShownTexts(lines []Line) shownTexts {
	return shownTexts{lines: lines, texts: make([]string, len(lines)), made: make([]bool, len(lines))}
}

func (s *shownTexts) text(i int) string {
	if !s.made[i] {
		t := s.lines[i].Text
		if needsCleaning(t) {
			t = cleanLine(t)
		}
		s.texts[i], s.made[i] = t, true
	}
	return s.texts[i]
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

// shownCells is how many cells raw text takes once shown (tabs expanded,
// cut at maxLineCells), without making the shown text.
func shownCells(s string) int {
	cells := 0
	for _, r := range s {
		if r == '\t' {
			cells += tabWidth - cells%tabWidth
		} else {
			cells++
		}
		if cells >= maxLineCells {
			return maxLineCells
		}
	}
	return cells
}

// cellsOf is how many cells a shown text takes (one a rune).
func cellsOf(s string) int { return utf8.RuneCountInString(s) }

// cutCells is s cut to its first n cells (one a rune); n <= 0 keeps all.
func cutCells(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
