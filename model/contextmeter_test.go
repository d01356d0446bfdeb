package model

import "testing"

func TestCompactCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 1000: "1k", 12345: "12.3k", 200000: "200k", 1500000: "1.5M"} {
		if got := CompactCount(n); got != want {
			t.Errorf("CompactCount(%d) = %q, want %q", n, got, want)
		}
	}
}
