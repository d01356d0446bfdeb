// Package filelock keeps processes, and goroutines of one process, from
// working on the same files at once: an exclusive lock on a lock file in a
// folder (flock on Unix, LockFileEx on Windows), or a lock file that is
// the lock by being there (Create). It imports the standard library and
// golang.org/x/sys.
package filelock

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Dir takes the exclusive lock on the file name in dir, waiting for
// another holder up to wait, and returns what gives it back. Each call
// opens the file anew, so goroutines of one process exclude each other as
// other processes do (the lock belongs to the open file, not to the
// process). Where the system has no such lock (see lock_other.go) it only
// creates the file.
func Dir(dir, name string, wait time.Duration) (unlock func(), err error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
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
			return nil, fmt.Errorf("%s is held by another process for more than %v", path, wait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}
