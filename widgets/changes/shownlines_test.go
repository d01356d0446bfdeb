package changes

import (
	"strings"
	"testing"
)

func TestShownTextsExpandCleanAndCut(t *testing.T) {
	long := strings.Repeat("é", maxLineCells+50)
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\tx\ty", "    x   y"},
		{"a\x1bb", "a b"},
		{long, long[:2*maxLineCells]}, // é is two bytes
	} {
		s := newShownTexts([]Line{{Text: c.in}})
		if got := s.text(0); got != c.want {
			t.Errorf("%.20q shown as %.20q, want %.20q", c.in, got, c.want)
		}
		// The width Set reckons without making the text is the drawn one.
		if n := shownCells(c.in); n != cellsOf(c.want) {
			t.Errorf("%.20q: shownCells %d, drawn %d cells", c.in, n, cellsOf(c.want))
		}
	}
}
