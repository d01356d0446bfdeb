package images

import (
	"context"
	"sync"
)

// Decoding memory: the pixel cap alone lets a small 16-bit PNG take over a
// gigabyte, and up to four workers, a paste and other tabs decode at once.
// So each decode is estimated in bytes from its header (estimate.go) and
// refused above maxDecodeBytes, and all decodes in the process share
// sharedDecodeBytes: one that does not fit waits for room.
const (
	maxDecodeBytes    = 512 << 20
	sharedDecodeBytes = 1 << 30
)

// processBudget is the one budget every decode in the process draws from.
var processBudget = newMemoryBudget(sharedDecodeBytes)

// memoryBudget hands out bytes up to a limit; a request that does not fit
// waits until enough is released or its context ends.
type memoryBudget struct {
	mu      sync.Mutex
	limit   int64
	used    int64
	peak    int64 // the most ever held at once, for tests
	waiting int   // requests waiting for room, for tests
	// freed is closed (and replaced) whenever bytes are released, waking
	// every waiter to try again.
	freed chan struct{}
}

func newMemoryBudget(limit int64) *memoryBudget {
	return &memoryBudget{limit: limit, freed: make(chan struct{})}
}

// acquire takes n bytes, waiting for room; release gives them back (more
// than one call is harmless). A request larger than the whole budget is
// clamped to it, so it runs alone rather than never.
func (b *memoryBudget) acquire(ctx context.Context, n int64) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n = min(max(n, 0), b.limit)
	b.mu.Lock()
	for b.used+n > b.limit {
		freed := b.freed
		b.waiting++
		b.mu.Unlock()
		select {
		case <-ctx.Done():
			b.mu.Lock()
			b.waiting--
			b.mu.Unlock()
			return nil, ctx.Err()
		case <-freed:
		}
		b.mu.Lock()
		b.waiting--
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	b.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { b.release(n) }) }, nil
}

func (b *memoryBudget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	close(b.freed)
	b.freed = make(chan struct{})
}

// state reports what is held, the peak and the number of waiters.
func (b *memoryBudget) state() (used, peak int64, waiting int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.peak, b.waiting
}
