package kit

import (
	"sync"

	"fyne.io/fyne/v2"
)

// The one way to the UI goroutine, for the widgets and the app alike
// (app/uiloop builds on it): Do and DoAndWait, and After, Later,
// InBackground and Tick on top of them. Fyne's test driver runs fyne.Do at
// once on the calling goroutine, where it would race the test's own UI
// work; tests replace the Driver once, with SetDriver, and everything that
// hops to the UI goroutine follows.

// Driver is how work reaches the UI goroutine. A nil field keeps the
// app's own way: Fyne's Do and DoAndWait; Later hands f to Do from a
// goroutine of its own; InBackground runs work on a goroutine, then done
// with Do. The goroutines of Later and InBackground end with the window:
// after Halt they start no more, and WaitBackground waits for them.
type Driver struct {
	// Do hands f to the UI goroutine and returns at once.
	Do func(f func())
	// DoAndWait hands f over and waits for it.
	DoAndWait func(f func())
	// Later runs f on the UI goroutine on a later turn of the event loop.
	Later func(f func())
	// InBackground runs work off the UI goroutine, then done on it.
	InBackground func(work, done func())
}

var (
	driverMu sync.RWMutex
	current  = Driver{}
	// halted is set once Fyne's loop has ended: there is no UI goroutine
	// any more, and fyne.Do would run f at once on the caller's.
	halted bool
	// background is the goroutines the app's own Later and InBackground
	// started; they are added to under driverMu, and never after Halt.
	background sync.WaitGroup
)

// driver returns the current driver with its nil fields filled in, and
// whether the route is open (not halted).
func driver() (Driver, bool) {
	driverMu.RLock()
	d, ok := current, !halted
	driverMu.RUnlock()
	if d.Do == nil {
		d.Do = fyne.Do
	}
	if d.DoAndWait == nil {
		d.DoAndWait = fyne.DoAndWait
	}
	return d, ok
}

// Do hands f to the UI goroutine and returns at once; after Halt it drops
// f.
func Do(f func()) {
	if d, ok := driver(); ok {
		d.Do(f)
	}
}

// DoAndWait hands f to the UI goroutine and waits for it; never call it
// from a Fyne callback. After Halt it drops f.
func DoAndWait(f func()) {
	if d, ok := driver(); ok {
		d.DoAndWait(f)
	}
}

// Halt says Fyne's loop has ended: from now on nothing reaches the UI
// goroutine, whichever timer or worker still asks, and Later and
// InBackground start no goroutine.
func Halt() {
	driverMu.Lock()
	defer driverMu.Unlock()
	halted = true
}

// SetDriver replaces how work reaches the UI goroutine, for tests, and
// starts afresh after a Halt; restore puts back what was there, not
// halted.
func SetDriver(d Driver) (restore func()) {
	driverMu.Lock()
	old := current
	current, halted = d, false
	driverMu.Unlock()
	return func() {
		driverMu.Lock()
		current, halted = old, false
		driverMu.Unlock()
	}
}

// CurrentDriver is the driver SetDriver last installed (nil fields: the
// app's own way), for a test that changes one of its fields.
func CurrentDriver() Driver {
	driverMu.RLock()
	defer driverMu.RUnlock()
	return current
}
