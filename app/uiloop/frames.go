package uiloop

import (
	"sync"
	"time"
)

// FrameInterval caps redraws at about 60 per second.
const FrameInterval = 16 * time.Millisecond

// MaxFrameGap is the longest a busy stream waits between redraws.
const MaxFrameGap = 250 * time.Millisecond

// burstEnd is how long without a change counts as the end of a burst:
// then the redraw comes at once, whatever the pace, so the last of a
// stream is on screen promptly.
const burstEnd = 30 * time.Millisecond

// Frames coalesces "something changed" into at most one redraw per frame.
// Only one redraw is ever queued with Fyne: its queue is unbounded, and a
// stream of 2,400 events a second must not become 2,400 queued closures.
// Waiting for each redraw (DoAndWait) also slows this goroutine, never the
// agent's reader, when the UI falls behind.
//
// draw returns how long to wait at least before the next redraw while
// changes keep coming: FrameInterval normally, longer when a redraw was
// costly (the app's frameGap).
//
// held (may be nil) says whether the current gap is to be kept even when
// the changes pause: while a reply streams, a model writes in bursts, and
// every pause past burstEnd would be a redraw of its own. Once held says
// false the next pause draws at once again, so the end of the reply is on
// screen promptly.
type Frames struct {
	draw func() time.Duration
	held func() bool
	kick chan struct{}
	stop chan struct{}
	once sync.Once
	done chan struct{}
}

// NewFrames starts the loop that calls draw on the UI goroutine.
func NewFrames(draw func() time.Duration) *Frames { return NewHeldFrames(draw, nil) }

// NewHeldFrames is NewFrames whose gaps are kept through pauses while held
// says so; held is called on the loop's goroutine, and must be safe there.
func NewHeldFrames(draw func() time.Duration, held func() bool) *Frames {
	f := &Frames{draw: draw, held: held, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go f.loop()
	return f
}

// Done is closed when the loop's goroutine has returned, after Stop.
func (f *Frames) Done() <-chan struct{} { return f.done }

// Invalidate asks for a redraw; safe from any goroutine, never blocks.
func (f *Frames) Invalidate() {
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

func (f *Frames) loop() {
	defer close(f.done)
	var last time.Time
	gap := FrameInterval
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-f.kick:
		}
		// Wait out the gap since the last redraw while changes keep coming;
		// burstEnd without one ends the wait, unless the gap is held.
	wait:
		for {
			left := gap - time.Since(last)
			if left <= 0 {
				break
			}
			if f.held == nil || !f.held() {
				left = min(left, burstEnd)
			}
			timer.Reset(left)
			select {
			case <-f.stop:
				return
			case <-f.kick:
				timer.Stop()
			case <-timer.C:
				break wait
			}
		}
		last = time.Now()
		DoAndWait(func() { gap = f.draw() })
	}
}

// Stop ends the loop: the tab stops it with its other timers (stopUI).
// Stop does not wait for the loop's goroutine, which may be waiting for a
// redraw on the UI goroutine that calls Stop; the goroutine returns at
// once, or once that redraw is done (Done says when). Nothing waits for it
// on quit either: once Fyne's loop has ended, a redraw handed over in its
// last moments may never be answered.
func (f *Frames) Stop() {
	f.once.Do(func() { close(f.stop) })
}
