package model

import (
	"context"

	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/rpcconn"
)

// painter is what a UI may offer beyond UI: word of the moment what it was
// asked to draw is on screen.
type painter interface {
	// AfterPaint calls f, on a goroutine of its own, once the session as
	// it is now has been drawn and painted, or after a short wait when no
	// paint comes (a hidden window).
	AfterPaint(f func())
}

// loadHistory fetches the transcript and shows its last screen at once.
// The rest is converted once that screen is painted, on a goroutine of its
// own (HistoryLoad). loadHistory returns after that paint, so that what
// the caller asks of the agent next (stats, for seconds on a long session)
// does not compete with it. After a restart into an empty session the old
// transcript stays on screen, marked as such.
func (c *Controller) loadHistory(ctx context.Context, conn *rpcconn.Conn, restart bool) error {
	a, err := conn.GetMessagesRaw(ctx)
	if !a.Received.IsZero() {
		trace.MarkAt(a.Received, "messages-received", a.Size)
	}
	if err != nil && len(a.Messages) == 0 {
		return err
	}
	n := len(a.Messages)
	if restart && n == 0 {
		c.applyFor(conn, func() {
			// Without a conversation on screen there is nothing it forgot.
			if c.session.HasConversation() {
				c.session.Notice(NoticeInfo, "The agent restarted in a new session: the conversation above is kept here, but the agent no longer remembers it.")
			}
		})
		return nil
	}
	var load *HistoryLoad
	if !c.applyFor(conn, func() { load = c.session.BeginHistory(a.Messages, err) }) {
		return nil // a restart replaced this agent
	}
	trace.Mark("history", n)
	c.ui.Invalidate()
	c.waitPainted()
	c.spawn(func() {
		load.Finish(c.ctx)
		trace.Mark("history-done", n)
		c.ui.Invalidate()
		if n > 1000 {
			releaseDecodeMemory()
		}
	})
	return nil
}

// waitPainted waits until the window has painted the session as it is, if
// the UI can tell.
func (c *Controller) waitPainted() {
	p, ok := c.ui.(painter)
	if !ok {
		return
	}
	done := make(chan struct{})
	p.AfterPaint(func() { close(done) })
	select {
	case <-done:
	case <-c.ctx.Done():
	}
}
