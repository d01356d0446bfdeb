package kit

import "fyne.io/fyne/v2"

// Later runs f on the UI goroutine on a later turn of the event loop, never
// inside the current call: long work split in steps lets input and frames
// in between. Tests replace it to run the steps when they choose (the test
// driver's fyne.Do runs at once, on the calling goroutine).
var Later = func(f func()) { go fyne.Do(f) }

// InBackground runs work off the UI goroutine, then done on it. work must
// not touch widgets; done may. Tests run both at once.
var InBackground = func(work, done func()) {
	go func() {
		work()
		fyne.Do(done)
	}()
}
