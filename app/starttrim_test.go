package app

import (
	"runtime"
	"testing"
	"time"
)

// The trim is armed once, at the first startedUp, for startTrimDelay;
// cancel stops it.
func TestStartTrimArmsOnce(t *testing.T) {
	var armed []time.Duration
	stopped := 0
	s := newStartTrim()
	s.after = func(d time.Duration, f func()) func() bool {
		armed = append(armed, d)
		return func() bool { stopped++; return true }
	}
	s.cancel() // before the start-up is over: nothing to stop
	for range 3 {
		s.startedUp()
	}
	if len(armed) != 1 || armed[0] != startTrimDelay {
		t.Fatalf("armed %v, want once for %v", armed, startTrimDelay)
	}
	s.cancel()
	if stopped != 1 {
		t.Fatalf("cancel stopped %d timers, want 1", stopped)
	}
}

// When it fires, the garbage the collector freed goes back to the system:
// the heap's free pages still held from it are next to none.
func TestStartTrimGivesFreedMemoryBack(t *testing.T) {
	held := func(m runtime.MemStats) uint64 { return m.HeapIdle - m.HeapReleased }
	var fire func()
	s := newStartTrim()
	s.after = func(d time.Duration, f func()) func() bool { fire = f; return func() bool { return true } }
	s.startedUp()
	if fire == nil {
		t.Fatal("nothing armed")
	}
	// Start-up's garbage: many small objects (parsed fonts, layouts).
	garbage := make([][]byte, 16<<10)
	for i := range garbage {
		garbage[i] = make([]byte, 4<<10)
		garbage[i][0] = 1
	}
	garbage = nil
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	if held(before) < 16<<20 {
		t.Skipf("the collector already gave the garbage back (%d MB held): nothing for the trim to show", held(before)>>20)
	}
	fire()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("free heap held from the system: %d MB before the trim, %d MB after", held(before)>>20, held(after)>>20)
	if held(after) > 8<<20 {
		t.Fatalf("the trim left %d MB of free heap held from the system", held(after)>>20)
	}
}
