package app

import (
	"runtime"
	"testing"
	"time"
)

// The start-up trim is armed once, for startTrimDelay, and when it fires
// the garbage the collector freed goes back to the system: the heap's free
// pages still held from the system are next to none.
func TestStartTrimGivesFreedMemoryBack(t *testing.T) {
	var armed []time.Duration
	var fire func()
	held := func(m runtime.MemStats) uint64 { return m.HeapIdle - m.HeapReleased }
	stop := startTrim(startTrimDelay, func(d time.Duration, f func()) func() bool {
		armed, fire = append(armed, d), f
		return func() bool { return true }
	})
	if len(armed) != 1 || armed[0] != startTrimDelay {
		t.Fatalf("armed %v, want once for %v", armed, startTrimDelay)
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
	if !stop() {
		t.Fatal("stop did not reach the timer")
	}
}
