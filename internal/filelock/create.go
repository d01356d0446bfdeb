package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Create takes an exclusive lock by creating path, which holds the
// holder's pid until unlock removes it. Unlike Dir it needs no lock from
// the system, and a holder that was killed leaves the file behind: a lock
// older than stale is taken to be such a leftover and broken. It waits for
// another holder until ctx ends. The app's agent install (agentsetup) and
// the tests' (pienv) lock their install folders so.
func Create(ctx context.Context, path string, stale time.Duration) (unlock func(), err error) {
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > stale {
			os.Remove(path)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
