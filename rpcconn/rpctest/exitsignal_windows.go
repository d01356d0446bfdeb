package rpctest

// exitOnUSR1: Windows has no SIGUSR1; the option does nothing there.
func exitOnUSR1(*agent, int) {}
