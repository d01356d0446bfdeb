package app

import (
	"runtime/debug"
	"sync"
	"time"
)

// startTrimDelay is how long after the start-up is over (the first tab
// drawn with its agent's answer, or its failure) the app gives the memory
// the start-up left behind back to the system: time for that frame to be
// painted and the agent's first answers (history, models) to land.
// Parsing fonts and the theme's icons, building the window and the
// session's first screen leave some tens of megabytes of garbage; Go's
// collector frees them for reuse but hands the pages back to the system
// only slowly, so an idle window would go on holding them.
const startTrimDelay = 2 * time.Second

// startTrim gives the start-up's garbage back to the system, once.
type startTrim struct {
	// after is time.AfterFunc's shape, so tests can fire it themselves;
	// free is what it runs (debug.FreeOSMemory).
	after func(time.Duration, func()) (stop func() bool)
	free  func()

	once sync.Once
	mu   sync.Mutex
	stop func() bool
}

func newStartTrim() *startTrim {
	return &startTrim{after: afterFunc, free: debug.FreeOSMemory}
}

// afterFunc is time.AfterFunc as startTrim takes it.
func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// startedUp arms the trim the first time it is called; later calls do
// nothing.
func (s *startTrim) startedUp() {
	s.once.Do(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stop = s.after(startTrimDelay, s.free)
	})
}

// cancel stops a trim not yet done: the app is quitting.
func (s *startTrim) cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
}
