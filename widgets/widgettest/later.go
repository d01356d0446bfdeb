package widgettest

import "knightcode.ai/desktop/widgets/kit"

// The test driver's fyne.Do runs at once on the calling goroutine, so the
// steps kit.Later schedules wait in a queue that tests drain with RunLater
// or TakeLater, and background work runs in place. Importing widgettest
// installs that Driver, the one thing the widgets' tests swap.
var laterQueue []func()

func init() { kit.SetDriver(Driver()) }

// Driver is the widgets' test driver: Fyne's own Do and DoAndWait, Later
// queued for RunLater, InBackground in place. A test that wants another
// InBackground changes that field and installs it with kit.SetDriver.
func Driver() kit.Driver {
	return kit.Driver{
		Later: func(f func()) { laterQueue = append(laterQueue, f) },
		InBackground: func(work, done func()) {
			work()
			done()
		},
	}
}

// RunLater runs the queued steps, and those they queue, reporting how many.
func RunLater() int {
	n := 0
	for q := TakeLater(); len(q) > 0; q = TakeLater() {
		for _, f := range q {
			f()
			n++
		}
	}
	return n
}

// TakeLater empties the queue and returns the steps that were in it, for a
// test that looks between rounds.
func TakeLater() []func() {
	q := laterQueue
	laterQueue = nil
	return q
}
