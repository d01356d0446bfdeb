package app

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

// shutdownBound is how long the app waits, once its loop has ended, for
// its agents and goroutines before it exits anyway. The tabs and drafts
// are written before any wait, and an agent left behind dies with the
// app (its parent-death signal) or is ended at the next start, so past
// the bound waiting only keeps a quitting app on screen. Each agent's own
// grace is a few seconds; this is many times that.
const shutdownBound = 45 * time.Second

// shutdownWithin runs shutdown, and if it has not returned within bound,
// prints every goroutine's stack to stderr (what it was waiting for) and
// returns: a signal or a closed window must end the app, whatever hangs.
func shutdownWithin(bound time.Duration, shutdown func()) (finished bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		shutdown()
	}()
	select {
	case <-done:
		return true
	case <-time.After(bound):
		printGoroutines(fmt.Sprintf("shutting down took over %v; exiting anyway", bound))
		return false
	}
}

// quitBound is how long the app may take, from a quit signal, to be gone.
// shutdownBound covers a shutdown that hangs once the loop has ended; this
// covers a loop that never ends (the UI goroutine stuck, or the quit lost
// between Fyne's own signal handler and ours), which shutdownWithin never
// gets to see.
const quitBound = shutdownBound + 30*time.Second

// exitUnlessGone arms the last resort for a signalled quit: if the process
// is still here after bound, it prints every goroutine's stack (what the
// quit was waiting for), calls exit and goes. The returned function disarms it.
func exitUnlessGone(bound time.Duration, exit func()) (disarm func() bool) {
	return time.AfterFunc(bound, func() {
		printGoroutines(fmt.Sprintf("still running %v after the quit signal; exiting", bound))
		exit()
	}).Stop
}

func printGoroutines(why string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	fmt.Fprintf(os.Stderr, "knightcode-desktop: %s. Goroutines:\n%s\n", why, buf)
}
