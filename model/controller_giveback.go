package model

import (
	"errors"
	"slices"

	"knightcode.ai/desktop/rpcconn"
)

// When an agent ends by itself (it exits, it crashes), what the user sent
// that it never took goes back to the editor, each text exactly once, with
// one notice: its queued steering and follow-up messages (the session's
// Effects.GiveBack), the prompts still on their way (inflight) and the
// sends whose call the exit failed. A failed call and the exit event race:
// the call's goroutine may see its error before or after the event is
// handled. Under c.mu, a call failed before is staged in diedWith for the
// exit to collect; one still in flight is marked givenBack by the exit;
// after the exit was handled, a late failure gives its text back alone.

// lostSend is a send the agent's end failed: its text and the waiting
// item showing it ("" for a steer or follow-up).
type lostSend struct {
	text, waitingID string
}

// diedFrom reports whether err says the agent ended (not closed by us).
func diedFrom(err error) bool {
	var exited *rpcconn.ExitError
	return errors.As(err, &exited)
}

// stageLostLocked keeps a send that conn's end failed for the exit to give back,
// and reports whether it did; false: conn's exit was handled already and
// the caller gives the text back itself. c.mu must be held.
func (c *Controller) stageLostLocked(conn *rpcconn.Conn, l lostSend) bool {
	if c.exitHandled == conn {
		return false
	}
	c.diedWith = append(c.diedWith, l)
	return true
}

// stageLost is stageLostLocked for a caller not holding c.mu.
func (c *Controller) stageLost(conn *rpcconn.Conn, l lostSend) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stageLostLocked(conn, l)
}

// giveBack hands the editor what conn took with it when it ended: queued,
// the queue the session emptied, then the sends still on their way or
// failed by the exit (a steer whose call failed after the agent queued it
// is in queued already: it counts once).
func (c *Controller) giveBack(conn *rpcconn.Conn, queued []string) {
	c.mu.Lock()
	c.exitHandled = conn
	lost := c.diedWith
	c.diedWith = nil
	for _, f := range c.inflight {
		if !f.takenBack && !f.moved && !f.givenBack {
			f.givenBack = true
			f.cancel()
			lost = append(lost, lostSend{text: f.text, waitingID: f.id})
		}
	}
	c.mu.Unlock()
	texts := slices.Clone(queued)
	inQueue := slices.Clone(queued)
	for _, l := range lost {
		if l.waitingID != "" {
			c.session.DropWaiting(l.waitingID)
		}
		if i := slices.Index(inQueue, l.text); i >= 0 {
			inQueue = slices.Delete(inQueue, i, i+1)
			continue
		}
		texts = append(texts, l.text)
	}
	if len(texts) == 0 {
		return
	}
	c.ui.GiveBack(texts)
	c.session.Notice(NoticeWarning, GiveBackNotice(len(texts), c.session.AgentName()))
}
