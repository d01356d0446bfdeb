package app

import "os"

// debugPanicEnv, set to 1, adds a palette command that panics on the UI
// goroutine: the fault tests use it to see that a panic keeps the open
// tabs and drafts and ends the agents and their tools.
const debugPanicEnv = "KNIGHTCODE_DEBUG_PANIC"

// debugActions are the palette commands for testing the app's own faults;
// none unless debugPanicEnv asks.
func debugActions(a func(id, title, detail, sc string, run func()) appAction) []appAction {
	if os.Getenv(debugPanicEnv) != "1" {
		return nil
	}
	return []appAction{a("debug-panic", "Panic now (debug)", "Crash the app on purpose, as a bug would", "", func() {
		panic("a panic asked for from the palette (" + debugPanicEnv + "=1)")
	})}
}
