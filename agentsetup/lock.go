package agentsetup

import (
	"context"
	"time"

	"knightcode.ai/desktop/internal/filelock"
)

// lock takes an exclusive lock by creating path, so two windows (or a
// window and run.sh) never install into one folder at once; the second
// waits and then finds the agent installed. A lock older than an install
// can take is left from a killed process, and is broken.
func lock(ctx context.Context, path string) (unlock func(), err error) {
	return filelock.Create(ctx, path, installTimeout+time.Minute)
}
