package model

import (
	"context"
	"errors"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// Ask is the one way the window asks the agent, or the files behind it,
// for something it then shows: ask runs on a goroutine of the controller,
// under its context (Shutdown cancels it and waits for it) bounded by
// timeout, and answer gets the result on the UI goroutine through UI.Do —
// unless the controller has shut down by then, when nobody is there to see
// it. Commands whose only answer is the session's next state (SelectModel,
// Fork…) are the controller's methods, which report their errors in the
// transcript.
func Ask[T any](c *Controller, timeout time.Duration, ask func(ctx context.Context) (T, error), answer func(T, error)) {
	c.spawn(func() {
		ctx, cancel := context.WithTimeout(c.ctx, timeout)
		defer cancel()
		v, err := ask(ctx)
		if c.ctx.Err() != nil {
			return
		}
		c.ui.Do(func() { answer(v, err) })
	})
}

// errNotRunning answers a query made while no agent runs.
var errNotRunning = errors.New("the agent is not running")

// AgentGone says err only means the agent went away or the query was
// cancelled: the banner reports an exit, once, and a query it took down
// with it adds nothing.
func AgentGone(err error) bool {
	var exited *rpcconn.ExitError
	return errors.Is(err, context.Canceled) || errors.Is(err, rpcconn.ErrClosed) || errors.As(err, &exited)
}
