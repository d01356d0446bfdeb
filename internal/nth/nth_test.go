package nth

import "testing"

func TestIndexByte(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want int
	}{
		{"a\nb\nc\n", 1, 1},
		{"a\nb\nc\n", 2, 3},
		{"a\nb\nc\n", 3, 5},
		{"a\nb\nc\n", 4, -1},
		{"", 1, -1},
		{"abc", 0, -1},
		{"\n\n", 2, 1},
	} {
		if got := IndexByte(c.s, '\n', c.n); got != c.want {
			t.Errorf("IndexByte(%q, %d) = %d, want %d", c.s, c.n, got, c.want)
		}
	}
}
