package markdown

import (
	"image/color"
	"strings"
	"testing"
)

func TestHighlightLinesByFileName(t *testing.T) {
	fg := color.NRGBA{A: 0xff}
	lines := []string{"package main", "", "func main() { // hi", "}"}
	out := HighlightLines("cmd/x/main.go", lines, fg, false)
	if len(out) != len(lines) {
		t.Fatalf("%d lines out for %d in", len(out), len(lines))
	}
	for i, l := range lines {
		var b strings.Builder
		for _, r := range out[i] {
			b.WriteString(r.Text)
		}
		if b.String() != l {
			t.Errorf("line %d: %q, want %q", i, b.String(), l)
		}
	}
	if len(out[0]) < 2 || out[0][0].Color == fg {
		t.Errorf("\"package\" is not coloured as a keyword: %+v", out[0])
	}
	plain := HighlightLines("notes.unknownext", lines, fg, false)
	if len(plain[2]) != 1 || plain[2][0].Color != fg {
		t.Errorf("an unknown file type is not plain: %+v", plain[2])
	}
}

func TestHighlightLinesPastTheLimit(t *testing.T) {
	// More than highlightLimit bytes: lexed in pieces, every line kept.
	var lines []string
	for len(lines)*20 < 3*highlightLimit {
		lines = append(lines, "x := 1 // comment ..")
	}
	out := HighlightLines("a.go", lines, color.Black, false)
	if len(out) != len(lines) {
		t.Fatalf("%d lines out for %d in", len(out), len(lines))
	}
	if last := out[len(out)-1]; len(last) < 2 {
		t.Errorf("the last piece is not coloured: %+v", last)
	}
}
