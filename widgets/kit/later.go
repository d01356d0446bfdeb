package kit

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// The one way to the UI goroutine, for the widgets and the app alike
// (app/uiloop builds on it): Do, DoAndWait, and After, Later and
// InBackground on top of Do. Fyne's test driver runs fyne.Do at once on the
// calling goroutine, where it would race the test's own UI work; window
// tests replace the driver once, with SetDriver, and everything that hops
// to the UI goroutine follows.
var (
	driverMu  sync.RWMutex
	do        = fyne.Do
	doAndWait = fyne.DoAndWait
	// halted is set once Fyne's loop has ended: there is no UI goroutine
	// any more, and fyne.Do would run f at once on the caller's.
	halted bool
)

func driver() (doFn, doAndWaitFn func(func()), ok bool) {
	driverMu.RLock()
	defer driverMu.RUnlock()
	return do, doAndWait, !halted
}

// Do hands f to the UI goroutine and returns at once; after Halt it drops
// f.
func Do(f func()) {
	if d, _, ok := driver(); ok {
		d(f)
	}
}

// DoAndWait hands f to the UI goroutine and waits for it; never call it
// from a Fyne callback. After Halt it drops f.
func DoAndWait(f func()) {
	if _, d, ok := driver(); ok {
		d(f)
	}
}

// Halt says Fyne's loop has ended: from now on nothing reaches the UI
// goroutine, whichever timer or worker still asks.
func Halt() {
	driverMu.Lock()
	defer driverMu.Unlock()
	halted = true
}

// SetDriver replaces how Do and DoAndWait reach the UI goroutine, for
// tests, and starts afresh after a Halt; restore puts back what was there,
// not halted.
func SetDriver(doFn, doAndWaitFn func(func())) (restore func()) {
	driverMu.Lock()
	oldDo, oldWait := do, doAndWait
	do, doAndWait, halted = doFn, doAndWaitFn, false
	driverMu.Unlock()
	return func() {
		driverMu.Lock()
		do, doAndWait, halted = oldDo, oldWait, false
		driverMu.Unlock()
	}
}

// After runs f on the UI goroutine once d has passed, unless stopped
// first.
func After(d time.Duration, f func()) (stop func()) {
	t := time.AfterFunc(d, func() { Do(f) })
	return func() { t.Stop() }
}

// Later runs f on the UI goroutine on a later turn of the event loop, never
// inside the current call: long work split in steps lets input and frames
// in between. widgettest replaces it to run the steps when a test chooses.
var Later = func(f func()) { go Do(f) }

// InBackground runs work off the UI goroutine, then done on it. work must
// not touch widgets; done may. widgettest runs both at once.
var InBackground = func(work, done func()) {
	go func() {
		work()
		Do(done)
	}()
}
