package app

import (
	"time"
)

// tickOnUI runs f on the UI goroutine, through do (nil: uiDo), every
// interval until the returned stop is called. Countdowns use it only while
// something counts down, so an idle window runs no timer.
func tickOnUI(do func(func()), interval time.Duration, f func()) (stop func()) {
	if do == nil {
		do = uiDo
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
