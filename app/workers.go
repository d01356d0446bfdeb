package app

import (
	"context"
	"sync"
)

// workers runs the window's own background work — queries for the
// session browser, the tree, the fork list and the palette, loading
// attachments — so that closing the window can cancel it and wait for it
// before the agent is stopped. (The controller's own goroutines are its
// business: Controller.Shutdown waits for those.)
type workers struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
}

func newWorkers() *workers {
	ctx, cancel := context.WithCancel(context.Background())
	return &workers{ctx: ctx, cancel: cancel}
}

// Go runs f on a goroutine that stop cancels and waits for; f gets the
// context to honour. Once stopped, f is not run and Go reports false.
func (g *workers) Go(f func(ctx context.Context)) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f(g.ctx)
	}()
	return true
}

// stop cancels what runs and waits for it. It must not be called from the
// UI goroutine while a worker may wait for it (workers hand work to the UI
// with Window.do, which never waits).
func (g *workers) stop() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	g.wg.Wait()
}
