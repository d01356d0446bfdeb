package app

import (
	"errors"
	"sync"
	"time"
)

// A folder watch tells the changes pane that files changed on disk while
// it is in front: an editor saved, a build wrote, git switched branches.
// Linux has one (inotify, folderwatch_linux.go); elsewhere the pane looks
// again when a tool run ends, the window comes back to the front, or the
// user asks (Refresh).

// errNoWatch is the answer where the system offers no watch here.
var errNoWatch = errors.New("no folder watch on this system")

// watchDirsMax bounds the folders watched: past it, changes in the rest are
// seen the other ways.
const watchDirsMax = 4000

// watchQuiet is how long changes must stop before the pane is told: a
// build writing a thousand files makes one look, not a thousand.
const watchQuiet = 400 * time.Millisecond

// quieted calls f once changes have stopped for watchQuiet.
type quieted struct {
	mu      sync.Mutex
	timer   *time.Timer
	f       func()
	stopped bool
}

func (q *quieted) poke() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return // an event read just before the watch was stopped
	}
	if q.timer == nil {
		q.timer = time.AfterFunc(watchQuiet, q.f)
		return
	}
	q.timer.Reset(watchQuiet)
}

func (q *quieted) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stopped = true
	if q.timer != nil {
		q.timer.Stop()
	}
}
