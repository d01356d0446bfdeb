package app

import (
	"testing"
	"time"

	"knightcode.ai/desktop/app/uiloop"
)

// A redraw that drew many new lines waits longer before the next one;
// while a reply streams it waits at least streamFrameGap.
func TestFrameGapGrowsWithNewLines(t *testing.T) {
	for _, c := range []struct {
		lines     uint64
		streaming bool
		want      time.Duration
	}{
		{0, false, uiloop.FrameInterval}, {2, false, uiloop.FrameInterval}, {10, false, 60 * time.Millisecond},
		{40, false, 240 * time.Millisecond}, {400, false, uiloop.MaxFrameGap},
		{0, true, streamFrameGap}, {2, true, streamFrameGap}, {40, true, 240 * time.Millisecond}, {400, true, uiloop.MaxFrameGap},
	} {
		if got := frameGap(c.lines, c.streaming); got != c.want {
			t.Errorf("frameGap(%d, streaming %v) = %v, want %v", c.lines, c.streaming, got, c.want)
		}
	}
}
