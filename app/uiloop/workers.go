package uiloop

import (
	"context"
	"sync"
)

// Workers runs a tab's own background work — queries for the
// session browser, the tree, the fork list and the palette, loading
// attachments — so that closing the tab can cancel it and wait for it
// before the agent is stopped. (The controller's own goroutines are its
// business: Controller.Shutdown waits for those.)
type Workers struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
}

// NewWorkers returns workers ready to run.
func NewWorkers() *Workers {
	ctx, cancel := context.WithCancel(context.Background())
	return &Workers{ctx: ctx, cancel: cancel}
}

// Go runs f on a goroutine that Stop cancels and waits for: the tab's
// lifetime ends there (shutdownAgent, when the tab closes or the window
// quits). f gets the context to honour. Once stopped, f is not run and Go reports false.
func (g *Workers) Go(f func(ctx context.Context)) bool {
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

// Stop cancels what runs and waits for it. It must not be called from the
// UI goroutine while a worker may wait for it (workers hand work to the UI
// with Do, which never waits).
func (g *Workers) Stop() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	g.wg.Wait()
}
