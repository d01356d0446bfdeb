package uiloop

import (
	"sync/atomic"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
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
// asked for: a costly stream is not drawn 60 times a second. Time is what
// this promises, so the count is bounded, at 10× the expected figure: a
// busy machine can pause the changes past burstEnd, and each pause is a
// redraw of its own.
func TestFramesKeepTheGapDrawsAsk(t *testing.T) {
	const gap = 500 * time.Millisecond
	f, n, _ := countingFrames(gap)
	defer f.Stop()
	start := time.Now()
	end := start.Add(time.Second)
	// A second of changes, and on until the gap let a second redraw
	// through: the stream is drawn while it lasts, not only at its end.
	testsupport.Eventually(t, "a second redraw while changes keep coming", func() bool {
		for range 10 {
			f.Invalidate()
			time.Sleep(2 * time.Millisecond)
		}
		return n.Load() >= 2 && time.Now().After(end)
	})
	took := time.Since(start)
	// One redraw at once and one a gap: about 3 in a second. Drawing at
	// every frame, without the gap, would be about 60.
	want := int32(took/gap) + 1
	got := n.Load()
	t.Logf("%d redraws in %v of changes with a %v gap", got, took.Round(time.Millisecond), gap)
	if got > 10*want {
		t.Fatalf("%d redraws in %v of changes with a %v gap; want about %d", got, took.Round(time.Millisecond), gap, want)
	}
}

// When the changes stop, the last state is drawn at once, not after the
// gap: the end of a stream is on screen promptly however fast it came.
// The gap is an hour, so that the second redraw coming at all says it was
// not waiting for the gap; no clock is needed.
func TestFramesDrawTheEndOfABurstAtOnce(t *testing.T) {
	f, n, lastDraw := countingFrames(time.Hour)
	defer f.Stop()
	f.Invalidate()
	testsupport.Eventually(t, "the first redraw", func() bool { return n.Load() == 1 })
	for range 20 {
		f.Invalidate()
		time.Sleep(time.Millisecond)
	}
	stopped := time.Now()
	testsupport.Eventually(t, "the redraw at the end of the burst, an hour before the gap ends", func() bool { return n.Load() == 2 })
	t.Logf("the end of the burst was drawn %v after it", time.Unix(0, lastDraw.Load()).Sub(stopped))
}

// While held (a reply streaming), pauses in the changes longer than
// burstEnd do not end the gap: a model writing in bursts is redrawn once a
// gap, not once a pause. The bound is logical, not a speed: each redraw
// waits the whole gap after the one before, so however slow the machine,
// no more than elapsed/gap + 1 redraws fit.
func TestHeldFramesKeepTheGapThroughPauses(t *testing.T) {
	const gap = 300 * time.Millisecond
	var n atomic.Int32
	f := NewHeldFrames(func() time.Duration { n.Add(1); return gap }, func() bool { return true })
	defer f.Stop()
	start := time.Now()
	for n.Load() < 3 || time.Since(start) < 4*gap {
		f.Invalidate()
		time.Sleep(3 * burstEnd) // a pause: without the hold, a redraw each
	}
	took := time.Since(start)
	if got, most := n.Load(), int32(took/gap)+1; got > most {
		t.Fatalf("%d redraws in %v of paused changes with a held %v gap; at most %d fit", got, took.Round(time.Millisecond), gap, most)
	}
}

// Once no longer held (the reply ended), the next pause draws at once, an
// hour before the gap is over.
func TestFramesReleasedDrawAtTheNextPause(t *testing.T) {
	var n atomic.Int32
	var held atomic.Bool
	held.Store(true)
	f := NewHeldFrames(func() time.Duration { n.Add(1); return time.Hour }, held.Load)
	defer f.Stop()
	f.Invalidate()
	testsupport.Eventually(t, "the first redraw", func() bool { return n.Load() == 1 })
	f.Invalidate()
	held.Store(false)
	f.Invalidate()
	testsupport.Eventually(t, "the redraw once released, an hour before the gap ends", func() bool { return n.Load() == 2 })
}
