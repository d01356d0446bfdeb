package rpctest

import (
	"os"
	"time"
)

// holdsMessages reports whether get_messages is held back
// (--fake-messages-delay, --fake-messages-gate): it is then answered on a
// goroutine of its own, so the commands after it are not held too.
func (a *agent) holdsMessages() bool {
	return a.opts.MessagesDelay > 0 || a.opts.MessagesGate != ""
}

// holdMessages waits as long as get_messages is held back: the delay, then
// until the gate file exists. The gate is polled: the fake has no other
// way to learn that a test created it.
func (a *agent) holdMessages() {
	if d := a.opts.MessagesDelay; d > 0 {
		time.Sleep(d)
	}
	if gate := a.opts.MessagesGate; gate != "" {
		for {
			if _, err := os.Stat(gate); err == nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
