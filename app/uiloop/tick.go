package uiloop

import (
	"time"

	"knightcode.ai/desktop/widgets/kit"
)

// Tick runs f on the UI goroutine, through do (nil: Do), every interval
// until the returned stop is called; it is kit's one ticker, which the
// widgets use too. Countdowns use it only while something counts down, so
// an idle window runs no timer. do must not wait: stop waits for the
// ticker's goroutine.
func Tick(do func(func()), interval time.Duration, f func()) (stop func()) {
	return kit.Tick(do, interval, f)
}
