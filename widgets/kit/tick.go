package kit

import "time"

// Tick runs f on the UI goroutine, through do (nil: Do), every interval
// until the returned stop is called: the app's one ticker, for countdowns
// and elapsed times, run only while something counts so that an idle
// window runs no timer. Its goroutine lives as long as its owner: the
// owner calls stop when it ends (a tab stops its tickers in stopUI), and
// the goroutine returns at once, or after the tick it is handing over.
// stop does not wait for that: it runs on the UI goroutine, and a test's
// do may be waiting for it.
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
