package app

import (
	"fmt"
	"os"
	"os/signal"
)

// onSignals quits the window, the way its close button does, on the first
// of quitSignals; the open tabs are kept for the next start first, before
// the agents are asked to stop, so a quit that hangs loses no tab. A
// second signal means the user will not wait: the app exits with status 1,
// its agents told to end by the system (on Linux they get SIGTERM when the
// app goes, see rpcconn) and their leftovers ended at the next start.
// Should the quit hang anywhere, the app exits quitBound after the signal
// all the same (exitUnlessGone). The returned function stops listening. The goroutine is the process's
// (signals come to the process, not to a tab), and stop ends it.
func onSignals(w *Window) (stop func()) {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, quitSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
		case <-done:
			return
		}
		exitUnlessGone(quitBound, w.finishWithoutLoop)
		w.do(func() {
			w.keepForNextStart()
			w.Quit()
		})
		select {
		case sig := <-signals:
			fmt.Fprintf(os.Stderr, "knightcode-desktop: %v again: exiting without waiting for the agents\n", sig)
			w.flushDrafts()
			os.Exit(1)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(signals)
		close(done)
	}
}
