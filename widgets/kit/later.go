package kit

import "time"

// After runs f on the UI goroutine once d has passed, unless stopped
// first. The timer starts no goroutine until it fires, and then one that
// only hands f to Do.
func After(d time.Duration, f func()) (stop func()) {
	t := time.AfterFunc(d, func() { Do(f) })
	return func() { t.Stop() }
}

// Later runs f on the UI goroutine on a later turn of the event loop, never
// inside the current call: long work split in steps lets input and frames
// in between. Tests choose when the steps run through their Driver.
func Later(f func()) {
	if d, _ := driver(); d.Later != nil {
		d.Later(f)
		return
	}
	// From a goroutine: a test driver's Do may run f at once, inside the
	// current call. The goroutine only hands f over.
	goBackground(func() { Do(f) })
}

// InBackground runs work off the UI goroutine, then done on it. work must
// not touch widgets; done may. After Halt neither runs: done could not,
// and work is for done.
func InBackground(work, done func()) {
	if d, _ := driver(); d.InBackground != nil {
		d.InBackground(work, done)
		return
	}
	goBackground(func() {
		work()
		Do(done)
	})
}

// goBackground runs f on a goroutine counted in background, unless the
// route is halted. It is counted under the lock Halt takes, so none is
// added once WaitBackground may wait.
func goBackground(f func()) {
	driverMu.RLock()
	if halted {
		driverMu.RUnlock()
		return
	}
	background.Add(1)
	driverMu.RUnlock()
	go func() {
		defer background.Done()
		f()
	}()
}

// WaitBackground waits for the goroutines Later and InBackground started:
// the window calls it once its loop has ended and Halt was called. After
// Halt they only finish their work (Do drops what they hand over), so the
// wait is bounded by that work and never by the UI goroutine.
func WaitBackground() { background.Wait() }
