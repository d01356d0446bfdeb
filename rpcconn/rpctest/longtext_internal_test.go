package rpctest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Every size comes out exact and valid UTF-8, whatever letter it cuts.
func TestMixedLineAnySize(t *testing.T) {
	for n := 1; n <= 2000; n++ {
		if s := mixedLine(n); len(s) != n || !utf8.ValidString(s) {
			t.Fatalf("mixedLine(%d): %d bytes, valid %v", n, len(s), utf8.ValidString(s))
		}
	}
}

func TestChunkBytesKeepsRunesWhole(t *testing.T) {
	s := mixedLine(5000)
	for size := 1; size <= 70; size++ {
		parts := chunkBytes(s, size)
		if strings.Join(parts, "") != s {
			t.Fatalf("size %d: the pieces do not join up", size)
		}
		for _, p := range parts {
			if !utf8.ValidString(p) || len(p) > max(size, utf8.UTFMax) || p == "" {
				t.Fatalf("size %d: piece %q", size, p)
			}
		}
	}
}

func TestWordsTextExactCounts(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 99, 1000, 4321} {
		if got := len(strings.Fields(wordsText(n))); got != n {
			t.Errorf("wordsText(%d): %d words", n, got)
		}
	}
}
