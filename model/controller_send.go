package model

import (
	"context"
	"errors"
	"strings"

	"knightcode.ai/desktop/rpcconn"
)

// heldSend is what the user sent while the agent was starting: a prompt or
// a !command, sent in order once the agent is ready.
type heldSend struct {
	text     string
	images   []rpcconn.Image
	followUp bool
	bash     bool
	accepted func()
	// waitingID is the transcript's waiting item of a prompt the agent
	// before a restart did not take: it goes out again, once, and shows
	// there rather than in the queue strip.
	waitingID string
}

// draft is the held text as the user typed it.
func (h heldSend) draft() string {
	if h.bash {
		return "!" + h.text
	}
	return h.text
}

// hold keeps h for when the agent is ready, if it is still starting (or
// earlier held sends are still going out, which h must follow). It reports
// whether it held h.
func (c *Controller) hold(h heldSend) bool {
	c.mu.Lock()
	if !c.connecting && len(c.held) == 0 {
		c.mu.Unlock()
		return false
	}
	c.held = append(c.held, h)
	c.mu.Unlock()
	c.publishHeld()
	return true
}

// publishHeld shows the held sends in the queue strip (but those shown in
// the transcript as waiting).
func (c *Controller) publishHeld() {
	c.mu.Lock()
	var texts []string
	for _, h := range c.held {
		if h.waitingID == "" {
			texts = append(texts, h.draft())
		}
	}
	c.mu.Unlock()
	c.session.SetWaiting(texts)
	c.ui.Invalidate()
}

// takeHeld removes and returns every held send; the waiting items of
// those shown in the transcript go with them.
func (c *Controller) takeHeld() []heldSend {
	c.mu.Lock()
	held := c.held
	c.held = nil
	c.mu.Unlock()
	for _, h := range held {
		if h.waitingID != "" {
			c.session.DropWaiting(h.waitingID)
		}
	}
	if len(held) > 0 {
		c.publishHeld()
	}
	return held
}

// returnHeld ends attempt gen's wait (the start failed) and puts what was
// held back into the editor, saying why with notice.
func (c *Controller) returnHeld(gen uint64, notice string) {
	c.mu.Lock()
	if gen != c.gen {
		c.mu.Unlock()
		return
	}
	c.connecting = false
	c.mu.Unlock()
	held := c.takeHeld()
	if len(held) == 0 {
		return
	}
	drafts := make([]string, len(held))
	for i, h := range held {
		drafts[i] = h.draft()
	}
	c.ui.RestoreDraft(strings.Join(drafts, "\n\n"))
	c.session.Notice(NoticeWarning, notice)
	c.ui.Invalidate()
}

// sendHeld sends, in order, what was held while conn started, then lets
// sends go straight to the agent. Prompts after the first are follow-ups:
// the user typed each after the one before.
func (c *Controller) sendHeld(conn *rpcconn.Conn) {
	first := true
	for {
		c.mu.Lock()
		if c.conn != conn {
			c.mu.Unlock()
			return
		}
		if len(c.held) == 0 {
			c.connecting = false
			c.mu.Unlock()
			return
		}
		h := c.held[0]
		c.held = c.held[1:]
		c.mu.Unlock()
		c.publishHeld()
		if h.bash {
			c.runBash(conn, h.text)
			continue
		}
		if h.waitingID != "" {
			// Shown as waiting since the agent before: it goes out as it
			// was, and waits here as any prompt does.
			c.deliverNow(conn, &inflight{id: h.waitingID, text: h.text, images: h.images, accepted: h.accepted,
				followUp: !first || c.session.Running()})
			first = false
			continue
		}
		p := rpcconn.Prompt{Message: h.text, Images: h.images}
		if !first || c.session.Running() {
			p.StreamingBehavior = rpcconn.StreamFollowUp
		}
		first = false
		c.sendPrompt(conn, p, h.accepted, false)
	}
}

// Send sends what the user typed. While the agent runs it steers, or with
// followUp queues it for when the agent is done. The editor was already
// cleared by the window; when sending fails the text goes back into it, so
// nothing typed is lost. While the agent starts, the text waits in the
// queue strip and goes out once the agent is ready. accepted (may be nil)
// runs once the agent took it.
func (c *Controller) Send(text string, sent []Image, followUp bool, accepted func()) {
	images := protoImages(sent)
	if c.hold(heldSend{text: text, images: images, followUp: followUp, accepted: accepted}) {
		return
	}
	p := rpcconn.Prompt{Message: text, Images: images}
	switch {
	case c.session.Running():
		p.StreamingBehavior = rpcconn.StreamSteer
		if followUp {
			p.StreamingBehavior = rpcconn.StreamFollowUp
		}
	case c.promptInFlight():
		// The prompt before it has not started its run yet: sent as a
		// prompt this one would find the agent busy. It follows, shown
		// as waiting as the one before.
		conn := c.current()
		if conn != nil {
			c.sendWaiting(conn, text, images, accepted, true)
			return
		}
	}
	conn := c.current()
	if conn == nil {
		c.ui.RestoreDraft(text)
		c.session.Notice(NoticeWarning, "Not sent: the agent is not running. Your text is back in the editor.")
		c.ui.Invalidate()
		return
	}
	if p.StreamingBehavior == "" {
		// A prompt: in the transcript at once, waiting for the agent.
		c.sendWaiting(conn, text, images, accepted, false)
		return
	}
	c.spawn(func() { c.sendPrompt(conn, p, accepted, true) })
}

// sendPrompt sends p to conn and waits for the agent to take it; a prompt
// it refuses goes back into the editor.
func (c *Controller) sendPrompt(conn *rpcconn.Conn, p rpcconn.Prompt, accepted func(), invalidate bool) {
	ctx, cancel := context.WithTimeout(c.ctx, longTimeout)
	defer cancel()
	c.beforePrompt(ctx)
	if err := conn.Prompt(ctx, p); err != nil {
		var exited *rpcconn.ExitError
		switch {
		case errors.Is(err, context.Canceled):
		case diedFrom(err) && c.stageLost(conn, lostSend{text: p.Message}):
			// The agent ended: its exit gives it back with the rest.
		case errors.As(err, &exited) || errors.Is(err, rpcconn.ErrClosed):
			c.ui.RestoreDraft(p.Message)
			c.session.Notice(NoticeWarning, "Not sent: the agent stopped. Your text is back in the editor.")
		default:
			c.ui.RestoreDraft(p.Message)
			c.report("Not sent", err)
		}
	} else if accepted != nil {
		accepted()
	}
	c.ui.Invalidate()
}

// Escape takes back what waits, and stops what runs. Prompts held while
// the agent starts come back into the editor. During a run it clears the
// agent's queue, aborts the run and puts the cleared messages back into
// the editor, as the protocol reference recommends; an agent without
// clear_queue keeps its queue, and the user is told those messages go to
// the model with the next prompt. While idle, Esc takes back messages still
// queued, where the agent can give them.
func (c *Controller) Escape() {
	if held := c.takeHeld(); len(held) > 0 {
		drafts := make([]string, len(held))
		for i, h := range held {
			drafts[i] = h.draft()
		}
		c.ui.RestoreDraft(strings.Join(drafts, "\n\n"))
		c.ui.Invalidate()
		return
	}
	running := c.session.Running()
	steering, followUp := c.session.Queue()
	queued := len(steering) + len(followUp)
	if !running && queued == 0 {
		return
	}
	if !running && c.session.QueueStays() {
		// The strip already says why they stay; asking again changes nothing.
		return
	}
	c.do("Stop", longTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		q, err := conn.ClearQueue(ctx)
		switch {
		case err == nil:
			if texts := append(q.Steering, q.FollowUp...); len(texts) > 0 {
				c.ui.RestoreDraft(strings.Join(texts, "\n\n"))
			}
		case errors.Is(err, rpcconn.ErrUnsupported):
			c.session.SetCapabilities(conn.Capabilities())
			s, f := c.session.Queue()
			if n := len(s) + len(f); n > 0 {
				c.session.Notice(NoticeInfo, QueueStaysNotice(n, c.session.AgentName()))
			}
		default:
			c.report("Could not take the queued messages back", err)
		}
		if !running {
			return nil
		}
		return conn.Abort(ctx)
	})
}

func (c *Controller) beforePrompt(ctx context.Context) {
	if c.BeforePrompt != nil {
		c.BeforePrompt(ctx)
	}
}
