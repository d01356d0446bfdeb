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
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		fmt.Fprintf(os.Stderr, "knightcode-desktop: shutting down took over %v; exiting anyway. Goroutines:\n%s\n", bound, buf)
		return false
	}
}
