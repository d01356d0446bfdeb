package model

import (
	"runtime/debug"
	"time"
)

// releaseDecodeMemory hands the memory of decoding a long session's
// messages back to the system. Decoding 50 MB of JSON grows the heap far
// beyond what the transcript keeps; without this the process would keep
// that peak for the rest of the session. It waits for the first paint and
// runs off the UI goroutine, since freeing takes a hundred milliseconds.
func releaseDecodeMemory() {
	time.Sleep(2 * time.Second)
	debug.FreeOSMemory()
}
