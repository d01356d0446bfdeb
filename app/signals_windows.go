package app

import (
	"os"
	"syscall"
)

// quitSignals end the app the way its close button does: Ctrl+C and Ctrl+Break
// in the console that started it, and the console closing (Go delivers these
// as SIGINT and SIGTERM on Windows).
var quitSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
