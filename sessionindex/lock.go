package sessionindex

import (
	"time"

	"knightcode.ai/desktop/internal/filelock"
)

// lockName is the file, beside the index, whose lock lets one process (or
// goroutine) at a time open, check, create or remove the index: without it
// two tabs or two app instances opening a new index at once each found the
// other's half-made schema unusable and removed the file the other had open.
const lockName = "sessions-index.lock"

// lockWait is how long lockDir waits for another holder before giving up:
// longer than any open or rebuild of an empty index takes.
var lockWait = 30 * time.Second

// lockDir takes the index folder's lock.
func lockDir(dir string) (unlock func(), err error) {
	return filelock.Dir(dir, lockName, lockWait)
}
