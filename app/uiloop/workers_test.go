package uiloop

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
)

// Stop joins the tab's workers: when it returns, every one has seen the
// cancel and returned, and no new one starts.
func TestWorkersStopJoinsThem(t *testing.T) {
	g := NewWorkers()
	var started, ended atomic.Int32
	for range 3 {
		g.Go(func(ctx context.Context) {
			started.Add(1)
			<-ctx.Done()
			time.Sleep(10 * time.Millisecond) // winding down after the cancel
			ended.Add(1)
		})
	}
	testsupport.Eventually(t, "three workers running", func() bool { return started.Load() == 3 })
	g.Stop()
	if n := ended.Load(); n != 3 {
		t.Fatalf("Stop returned with %d of 3 workers ended", n)
	}
	if g.Go(func(context.Context) { t.Error("a worker ran after Stop") }) {
		t.Fatal("Go started work after Stop")
	}
}

// Stop ends the frames' goroutine, idle or not.
func TestFramesStopEndsItsGoroutine(t *testing.T) {
	f := NewFrames(func() time.Duration { return FrameInterval })
	f.Invalidate()
	f.Stop()
	select {
	case <-f.Done():
	case <-time.After(testsupport.GoneWait):
		t.Fatalf("the frames' goroutine still ran %v after Stop", testsupport.GoneWait)
	}
}
