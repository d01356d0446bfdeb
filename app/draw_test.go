package app

import (
	"testing"
	"time"

	"knightcode.ai/desktop/app/uiloop"
)

// A redraw that drew many new lines waits longer before the next one.
func TestFrameGapGrowsWithNewLines(t *testing.T) {
	for _, c := range []struct {
		lines uint64
		want  time.Duration
	}{{0, uiloop.FrameInterval}, {2, uiloop.FrameInterval}, {10, 60 * time.Millisecond}, {40, 240 * time.Millisecond}, {400, uiloop.MaxFrameGap}} {
		if got := frameGap(c.lines); got != c.want {
			t.Errorf("frameGap(%d) = %v, want %v", c.lines, got, c.want)
		}
	}
}
