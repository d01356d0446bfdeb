package agentsetup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// lock takes an exclusive lock by creating path, so two windows (or a
// window and run.sh) never install into one folder at once; the second
// waits and then finds the agent installed. A lock older than an install
// can take is left from a killed process, and is broken.
func lock(ctx context.Context, path string) (unlock func(), err error) {
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
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > installTimeout+time.Minute {
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
