package markdown

import (
	"strings"
	"unicode/utf8"
)

// expandAllTabs is code with every tab expanded to stops of 4 cells: the
// text a code block shows, selects and copies.
func expandAllTabs(code string) string {
	if !strings.Contains(code, "\t") {
		return code
	}
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		lines[i] = expandCodeTabs(l, 4)
	}
	return strings.Join(lines, "\n")
}

// runeOffset is the byte offset of the n-th rune of s.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// WrapCode expands tabs and cuts lines longer than cols runes; cols 0 means
// no limit.
func WrapCode(code string, cols int) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		line = expandCodeTabs(line, 4)
		if cols <= 0 || len(line) <= cols {
			out = append(out, line)
			continue
		}
		for utf8.RuneCountInString(line) > cols {
			cut := 0
			for n := 0; n < cols; n++ {
				_, size := utf8.DecodeRuneInString(line[cut:])
				cut += size
			}
			out = append(out, line[:cut])
			line = line[cut:]
		}
		out = append(out, line)
	}
	return out
}

func expandCodeTabs(line string, width int) string {
	if !strings.Contains(line, "\t") {
		return line
	}
	var sb strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := width - col%width
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		sb.WriteRune(r)
		col++
	}
	return sb.String()
}
