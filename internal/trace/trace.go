// Package trace writes timing marks for the UI benchmarks
// (scripts/bench-ui.sh) when KNIGHTCODE_TRACE names a file; without it
// every mark is a no-op. It also writes the CPU and heap profiles
// KNIGHTCODE_CPUPROFILE and KNIGHTCODE_MEMPROFILE ask for (profile.go). It imports only the standard library, so the
// model and the window can both mark.
package trace

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// The marks, "<unix-nanos> <event> <arg>" lines: show (the window is
// shown); connected; messages-received <bytes of data> (the moment the
// get_messages answer's last byte was read, written once the controller
// has the answer, so a line or two later in the file than its time says);
// history <messages> (the first screen of the transcript is in the
// session); history-done <messages> (all of it is); draw (a redraw
// starts); items <n> (the chat was given n entries); painted <n> (a frame
// was painted that the controller waited for, with n entries drawn, just
// before the buffer swap); editor <length> (the draft changed).
type tracer struct {
	mu    sync.Mutex
	f     *os.File
	start time.Time
}

var marks = openTrace()

func openTrace() *tracer {
	path := os.Getenv("KNIGHTCODE_TRACE")
	if path == "" {
		return &tracer{}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return &tracer{}
	}
	return &tracer{f: f, start: time.Now()}
}

// Mark records an event with the wall-clock time in Unix nanoseconds, so a
// harness in another process can relate it to what it did.
func Mark(event string, args ...any) { marks.mark(event, args...) }

// MarkAt records an event that happened at at, seen only now (such as the
// moment a response had been read, stamped by the reader).
func MarkAt(at time.Time, event string, args ...any) { marks.markAt(at, event, args...) }

// Enabled says whether marks are written, for marks that cost something to
// compute.
func Enabled() bool { return marks.f != nil }

func (t *tracer) mark(event string, args ...any) {
	if t.f != nil {
		t.markAt(time.Now(), event, args...)
	}
}

func (t *tracer) markAt(at time.Time, event string, args ...any) {
	if t.f == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.f, "%d %s %s\n", at.UnixNano(), event, fmt.Sprint(args...))
}
