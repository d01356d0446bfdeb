package uiloop

import (
	"sync/atomic"
	"testing"
	"time"
)

// frames with a real UI goroutine stand-in: draws run on the loop's own
// goroutine, which is what DoAndWait does in the test driver.
func countingFrames(gap time.Duration) (*Frames, *atomic.Int32, *atomic.Int64) {
	var n atomic.Int32
	var lastDraw atomic.Int64
	f := NewFrames(func() time.Duration {
		n.Add(1)
		lastDraw.Store(time.Now().UnixNano())
		return gap
	})
	return f, &n, &lastDraw
}

// While changes keep coming, redraws are spaced by the gap the last one
// asked for: a costly stream is not drawn 60 times a second.
func TestFramesKeepTheGapDrawsAsk(t *testing.T) {
	f, n, _ := countingFrames(200 * time.Millisecond)
	defer f.Stop()
	end := time.Now().Add(time.Second)
	for time.Now().Before(end) {
		f.Invalidate()
		time.Sleep(2 * time.Millisecond)
	}
	if got := n.Load(); got > 8 || got < 2 {
		t.Fatalf("%d redraws in a second of changes with a 200 ms gap; want about 5", got)
	}
}

// When the changes stop, the last state is drawn at once, not after the
// gap: the end of a stream is on screen promptly however fast it came.
func TestFramesDrawTheEndOfABurstAtOnce(t *testing.T) {
	f, n, lastDraw := countingFrames(5 * time.Second)
	defer f.Stop()
	f.Invalidate()
	waitUntil(t, func() bool { return n.Load() == 1 })
	for range 20 {
		f.Invalidate()
		time.Sleep(time.Millisecond)
	}
	stopped := time.Now()
	waitUntil(t, func() bool { return n.Load() == 2 })
	if d := time.Unix(0, lastDraw.Load()).Sub(stopped); d > 2*time.Second {
		t.Fatalf("the end of the burst was drawn %v after it, the gap's time", d)
	}
}

func waitUntil(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("timed out")
}
