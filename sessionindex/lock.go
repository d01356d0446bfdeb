package sessionindex

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockName is the file, beside the index, whose lock lets one process (or
// goroutine) at a time open, check, create or remove the index: without it
// two tabs or two app instances opening a new index at once each found the
// other's half-made schema unusable and removed the file the other had open.
const lockName = "sessions-index.lock"

// lockWait is how long lockDir waits for another holder before giving up:
// longer than any open or rebuild of an empty index takes.
var lockWait = 30 * time.Second

// lockDir takes the exclusive lock on dir's lock file, waiting for another
// holder up to lockWait, and returns what gives it back. Each call opens
// the file anew, so goroutines of one process exclude each other as other
// processes do (the lock belongs to the open file, not to the process).
// Where the system has no such lock (see lock_other.go) it only creates
// the file.
func lockDir(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockWait)
	pause := time.Millisecond
	for {
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if held {
			return func() {
				unlockFile(f)
				f.Close()
			}, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s is held by another process for more than %v", path, lockWait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}
