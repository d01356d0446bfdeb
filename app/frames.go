package app

import (
	"sync"
	"time"
)

// frameInterval caps redraws at about 60 per second.
const frameInterval = 16 * time.Millisecond

// frames coalesces "something changed" into at most one redraw per frame.
// Only one redraw is ever queued with Fyne: its queue is unbounded, and a
// stream of 2,400 events a second must not become 2,400 queued closures.
// Waiting for each redraw (DoAndWait) also slows this goroutine, never the
// agent's reader, when the UI falls behind.
type frames struct {
	draw func()
	kick chan struct{}
	stop chan struct{}
	once sync.Once
	done chan struct{}
}

func newFrames(draw func()) *frames {
	f := &frames{draw: draw, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go f.loop()
	return f
}

// Invalidate asks for a redraw; safe from any goroutine, never blocks.
func (f *frames) Invalidate() {
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

func (f *frames) loop() {
	defer close(f.done)
	var last time.Time
	for {
		select {
		case <-f.stop:
			return
		case <-f.kick:
		}
		if wait := frameInterval - time.Since(last); wait > 0 {
			select {
			case <-f.stop:
				return
			case <-time.After(wait):
			}
		}
		last = time.Now()
		uiDoAndWait(f.draw)
	}
}

// Stop ends the loop; it must not be called from the UI goroutine while a
// redraw may be pending, or it would wait for itself.
func (f *frames) Stop() {
	f.once.Do(func() { close(f.stop) })
}
