package app

import (
	"runtime/debug"
	"time"
)

// startTrimDelay is how long after the window shows the app gives the
// memory its start-up left behind back to the system: by then the first
// screen is built and painted. Parsing fonts, the theme's icons, the
// settings and the session's first screen leave some tens of megabytes
// of garbage; Go's collector frees them for reuse but hands the pages
// back to the system only slowly, so the window would go on holding them
// while it sits idle.
const startTrimDelay = 5 * time.Second

// startTrim returns the start-up's garbage to the system once, after
// delay; stop cancels it (the app quitting first). after is
// time.AfterFunc's shape, so tests can fire it themselves.
func startTrim(delay time.Duration, after func(time.Duration, func()) (stop func() bool)) (stop func() bool) {
	return after(delay, debug.FreeOSMemory)
}

// afterFunc is time.AfterFunc as startTrim takes it.
func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
