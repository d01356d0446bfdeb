package model

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// notReadingAfter is how long a prompt may wait for the agent to take it
// (its write done and its answer back) before the window says the agent
// is not reading its input.
const notReadingAfter = 10 * time.Second

// inflight is a prompt on its way to the agent, shown in the transcript as
// waiting: what to give back to the editor, or to send again after a
// restart, exactly once.
type inflight struct {
	id       string // the waiting item
	text     string
	images   []rpcconn.Image
	accepted func()
	// followUp: it goes out after a prompt sent before it, which may
	// still run.
	followUp bool
	ctx      context.Context
	cancel   context.CancelFunc
	// takenBack, moved and givenBack say where it went instead: back to
	// the editor, into the held sends of a restarted agent, or back to
	// the editor when the agent ended (controller_giveback.go).
	takenBack, moved, givenBack bool
	// restartOnce restarts the agent once for all the prompts one Back
	// to editor took from it.
	restartOnce *sync.Once
}

// sendWaiting shows a prompt in the transcript as waiting and delivers it,
// as a follow-up of the prompt before when followUp.
func (c *Controller) sendWaiting(conn *rpcconn.Conn, text string, images []rpcconn.Image, accepted func(), followUp bool) {
	f := &inflight{id: c.session.AddWaitingPrompt(text, images), text: text, images: images, accepted: accepted, followUp: followUp}
	c.ui.Invalidate()
	c.deliver(conn, f)
}

// deliver sends f's prompt to conn on a goroutine of its own (see
// deliverNow).
func (c *Controller) deliver(conn *rpcconn.Conn, f *inflight) {
	c.track(f)
	c.spawn(func() { c.deliverTracked(conn, f) })
}

// deliverNow sends f's prompt to conn and returns once the agent took it
// (or it went elsewhere): held prompts go out one after the other, in
// order.
func (c *Controller) deliverNow(conn *rpcconn.Conn, f *inflight) {
	c.track(f)
	c.deliverTracked(conn, f)
}

// track lists f among the prompts on their way, cancellable.
func (c *Controller) track(f *inflight) {
	ctx, cancel := context.WithTimeout(c.ctx, longTimeout)
	f.ctx, f.cancel = ctx, cancel
	c.mu.Lock()
	c.inflight = append(c.inflight, f)
	c.mu.Unlock()
}

// deliverTracked sends f's prompt, marks it stuck when the agent has not
// taken it in notReadingAfter, and settles it when the agent answers.
func (c *Controller) deliverTracked(conn *rpcconn.Conn, f *inflight) {
	ctx := f.ctx
	defer f.cancel()
	// Before the stuck timer: the checkpoint's time is ours, not the
	// agent's silence.
	c.beforePrompt(ctx)
	// Stuck: no answer, and nothing else from the agent either, for
	// notReadingAfter. An agent that answers a prompt only once its
	// command is done (pi 0.73.1, an extension's dialog open) is busy,
	// not deaf: what it sends meanwhile shows it reads.
	var stuck *time.Timer
	heard := c.session.EventCount()
	stuck = time.AfterFunc(notReadingAfter, func() {
		if n := c.session.EventCount(); n != heard {
			heard = n
			stuck.Reset(notReadingAfter)
			return
		}
		c.session.SetStuck(f.id, true)
		c.ui.Invalidate()
	})
	p := rpcconn.Prompt{Message: f.text, Images: f.images}
	if f.followUp {
		p.StreamingBehavior = rpcconn.StreamFollowUp
	}
	disp, err := conn.PromptDisposition(ctx, p)
	stuck.Stop()
	c.mu.Lock()
	c.inflight = slices.DeleteFunc(c.inflight, func(x *inflight) bool { return x == f })
	takenBack, moved, givenBack := f.takenBack, f.moved, f.givenBack
	staged := !takenBack && !moved && !givenBack && diedFrom(err) &&
		c.stageLostLocked(conn, lostSend{text: f.text, waitingID: f.id})
	c.mu.Unlock()
	switch {
	case moved:
		// A restarted agent gets it; nothing of this one counts.
	case givenBack, staged:
		// The agent ended: its exit gives it back with the rest.
	case takenBack:
		if errors.Is(err, rpcconn.ErrMaybeDelivered) {
			// It is with (or half in the pipe of) an agent that may
			// act on it yet: only a fresh agent is sure not to.
			f.restartOnce.Do(c.Restart)
		}
	case err == nil:
		c.session.SetStuck(f.id, false)
		// A command the agent handled makes no message to replace the
		// waiting one (pi 1.6 says "handled"; pi 0.73.1 answers a
		// command once it has run, and no run started).
		if disp == rpcconn.DispositionHandled || disp == "" && strings.HasPrefix(f.text, "/") && !c.session.Running() {
			c.session.DropWaiting(f.id)
		}
		if f.accepted != nil {
			f.accepted()
		}
	case errors.Is(err, context.Canceled):
		c.session.DropWaiting(f.id)
	default:
		c.session.DropWaiting(f.id)
		c.ui.RestoreDraft(f.text)
		var exited *rpcconn.ExitError
		if errors.As(err, &exited) || errors.Is(err, rpcconn.ErrClosed) {
			c.session.Notice(NoticeWarning, "Not sent: the agent stopped. Your text is back in the editor.")
		} else {
			c.report("Not sent", err)
		}
	}
	c.ui.Invalidate()
}

// TakeBack gives every prompt the agent has not taken back to the editor
// (Back to editor on a stuck prompt): out of the transcript, in the order
// they were sent, and never delivered later. A prompt half written to an
// agent that may still read it restarts the agent.
func (c *Controller) TakeBack() {
	c.mu.Lock()
	var back []*inflight
	once := &sync.Once{}
	for _, f := range c.inflight {
		if !f.takenBack && !f.moved {
			f.takenBack, f.restartOnce = true, once
			back = append(back, f)
		}
	}
	c.mu.Unlock()
	if len(back) == 0 {
		return
	}
	texts := make([]string, len(back))
	for i, f := range back {
		texts[i] = f.text
		c.session.DropWaiting(f.id)
		f.cancel()
	}
	c.ui.RestoreDraft(strings.Join(texts, "\n\n"))
	c.ui.Invalidate()
}

// moveInflight hands the prompts the agent has not taken to the next
// agent (a restart): each is sent there once, its waiting item kept.
func (c *Controller) moveInflight() {
	c.mu.Lock()
	var moved []*inflight
	for _, f := range c.inflight {
		if !f.takenBack && !f.moved {
			f.moved = true
			moved = append(moved, f)
			c.held = append(c.held, heldSend{text: f.text, images: f.images, accepted: f.accepted, waitingID: f.id})
		}
	}
	c.mu.Unlock()
	for _, f := range moved {
		c.session.SetStuck(f.id, false)
		f.cancel()
	}
}

// promptInFlight reports whether a prompt went out that the agent has not
// answered yet.
func (c *Controller) promptInFlight() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.inflight {
		if !f.takenBack && !f.moved {
			return true
		}
	}
	return false
}
