//go:build !windows

package app

import (
	"os"
	"syscall"
)

// quitSignals end the app the way its close button does. SIGHUP comes when
// the terminal that started the app closes, SIGQUIT from Ctrl+\ there: both
// used to end the app at once, leaving its agents and tabs behind.
var quitSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}
