//go:build !windows

package rpctest

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// exitOnUSR1 makes the fake exit with code on SIGUSR1, the way an agent
// ends by itself (an extension's process.exit, a fatal error it catches):
// a normal exit, not a death by signal.
func exitOnUSR1(a *agent, code int) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGUSR1)
	go func() {
		<-sigs
		fmt.Fprintf(a.stderr, "fake-knightcode: SIGUSR1: exiting with code %d, as asked\n", code)
		a.out.exit(code)
	}()
}
