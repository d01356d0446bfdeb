package model

import (
	"context"

	"knightcode.ai/desktop/rpcconn"
)

func (c *Controller) getState(conn *rpcconn.Conn) (rpcconn.SessionState, error) {
	ctx, cancel := context.WithTimeout(c.ctx, CallTimeout)
	defer cancel()
	return conn.GetState(ctx)
}

// loadAll fetches what the window shows besides events: the transcript so
// far, models, thinking levels and the stats. The transcript is asked for
// first — the agent answers in order, and on a long session it is what the
// user waits for; get_state already named the model. What the user sent
// while the agent started goes out once the transcript is on screen.
func (c *Controller) loadAll(conn *rpcconn.Conn, restart bool) {
	ctx, cancel := context.WithTimeout(c.ctx, CallTimeout)
	defer cancel()
	if err := c.loadHistory(ctx, conn, restart); err != nil {
		c.applyFor(conn, func() { c.report("Could not load the conversation", err) })
	}
	models, err := conn.GetAvailableModels(ctx)
	c.applyFor(conn, func() {
		if err == nil {
			c.session.SetModels(models)
		} else {
			c.report("Could not list models", err)
		}
	})
	c.loadLevels(ctx, conn)
	c.sendHeld(conn)
	// Stats come last: the agent can take seconds over them on a long
	// session.
	c.loadStats(ctx, conn)
	c.ui.Invalidate()
	if c.OnReady != nil && c.current() == conn {
		c.OnReady()
	}
}

func (c *Controller) loadLevels(ctx context.Context, conn *rpcconn.Conn) {
	levels, err := conn.ThinkingLevels(ctx, c.session.Model())
	c.applyFor(conn, func() {
		if err != nil {
			c.report("Could not list thinking levels", err)
			return
		}
		c.session.SetLevels(levels)
	})
}

func (c *Controller) loadStats(ctx context.Context, conn *rpcconn.Conn) {
	if stats, err := conn.GetSessionStats(ctx); err == nil {
		c.applyFor(conn, func() { c.session.SetStats(stats) })
	}
}
