package widgets

// The test driver's fyne.Do runs at once on the calling goroutine, so the
// steps later() schedules wait in a queue that tests drain with runLater,
// and background work runs in place.
var laterQueue []func()

func init() {
	later = func(f func()) { laterQueue = append(laterQueue, f) }
	inBackground = func(work, done func()) {
		work()
		done()
	}
}

// runLater runs the queued steps, and those they queue, reporting how many.
func runLater() int {
	n := 0
	for len(laterQueue) > 0 {
		q := laterQueue
		laterQueue = nil
		for _, f := range q {
			f()
			n++
		}
	}
	return n
}
