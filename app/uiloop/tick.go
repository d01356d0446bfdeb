package uiloop

import (
	"time"
)

// Tick runs f on the UI goroutine, through do (nil: Do), every
// interval until the returned stop is called. Countdowns use it only while
// something counts down, so an idle window runs no timer.
func Tick(do func(func()), interval time.Duration, f func()) (stop func()) {
	if do == nil {
		do = Do
	}
	ticker := time.NewTicker(interval)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				do(f)
			}
		}
	}()
	return func() {
		ticker.Stop()
		close(done)
	}
}
