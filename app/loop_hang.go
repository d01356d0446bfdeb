package app

import (
	"fmt"
	"os"
	"time"
)

// loopEndBound is how long Fyne's loop may take to return once quitApp was
// handed to it, the agents down and the tabs and drafts kept. It returns in
// milliseconds; past this it is taken to hang. Fyne 2.7.1's loop end can
// strand its own stop hook (preferences' save) between its drain and the
// close of its queue, when the machine is busy: the main goroutine then
// waits in Lifecycle.WaitForEvents for ever, and ShowAndRun never returns
// (read in its internal/driver/glfw/loop.go; the stacks printed here say
// whether that is what happened).
const loopEndBound = 15 * time.Second

// hangShutdownBound bounds the shutdown run without the loop's return: a
// UI goroutine that hangs may hold what it needs.
const hangShutdownBound = 20 * time.Second

// finish is the shutdown after the loop, run once: by Run when the loop
// returns, or by finishWithoutLoop when it does not.
func (w *Window) finish() { w.shutdownOnce.Do(w.shutdown) }

// finishWithoutLoop ends the process when the loop did not return: the
// shutdown the loop's end would have run, bounded, then exit, 0 when that
// shutdown finished.
func (w *Window) finishWithoutLoop() {
	w.flushDrafts()
	code := 0
	if !shutdownWithin(hangShutdownBound, w.finish) {
		code = 1
	}
	os.Exit(code)
}

// watchLoopEnd runs once quitApp was handed to the loop, in the app's own
// process: if Run has not seen the loop return within loopEndBound, it
// prints every goroutine's stack and finishes without it.
func (w *Window) watchLoopEnd() {
	select {
	case <-w.loopReturned:
	case <-time.After(loopEndBound):
		printGoroutines(fmt.Sprintf("Fyne's loop did not return %v after quitting (the agents are down); finishing without it", loopEndBound))
		w.finishWithoutLoop()
	}
}
