package rpctest

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// run is one prompt's activity from acceptance to agent_settled: one or more
// low-level agent runs (retries), then any threshold compaction.
type run struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed once settled
	script *script       // of the latest user message, which a retry repeats
	quote  []string      // the latest user messages' words, which a retry repeats

	// Guarded by agent.mu.
	ended       bool       // the last agent_end is out; aborts are answered at once
	aborts      []*command // abort commands to answer after agent_end
	retryCancel context.CancelFunc

	// promptResponse is set when [[out-of-order]] holds the prompt's
	// response back until the stream has started.
	promptResponse func()
	respondOnce    sync.Once
}

type turnMessage struct {
	queuedMessage
	script *script
}

const maxRetryAttempts = 3

func newRun(sc *script) *run {
	ctx, cancel := context.WithCancel(context.Background())
	return &run{ctx: ctx, cancel: cancel, done: make(chan struct{}), script: sc}
}

func (r *run) flushPromptResponse() {
	if r.promptResponse != nil {
		r.respondOnce.Do(r.promptResponse)
	}
}

func (a *agent) runSession(r *run, first turnMessage) {
	defer close(r.done)
	a.startChildren(first.script)
	a.out.enable(first.script.crlf, first.script.splitWrites)
	pending := []turnMessage{first}
	a.mu.Lock()
	// Steering queued while idle goes with the prompt, as in the agent.
	pending = append(pending, a.takeQueueLocked(&a.steering, "all")...)
	a.mu.Unlock()

	var last loopResult
	for attempt := 0; ; attempt++ {
		a.emit(obj("type", "agent_start"))
		last = a.agentLoop(r, pending, attempt)
		pending = nil
		a.mu.Lock()
		autoRetry := a.autoRetry
		a.mu.Unlock()
		willRetry := last.retryable && autoRetry && attempt < maxRetryAttempts && r.ctx.Err() == nil
		a.emit(obj("type", "agent_end", "messages", last.messages, "willRetry", willRetry))
		if !willRetry {
			if last.retryable && attempt > 0 {
				a.emit(obj("type", "auto_retry_end", "success", false, "attempt", attempt, "finalError", last.errorMessage))
			}
			break
		}
		delay := 50 * time.Millisecond << attempt
		if a.opts.RetryDelay > 0 {
			delay = a.opts.RetryDelay << attempt
		}
		a.emit(obj("type", "auto_retry_start", "attempt", attempt+1, "maxAttempts", maxRetryAttempts,
			"delayMs", delay.Milliseconds(), "errorMessage", last.errorMessage))
		if !a.retryWait(r, delay) {
			a.emit(obj("type", "auto_retry_end", "success", false, "attempt", attempt+1, "finalError", "Retry cancelled"))
			break
		}
	}
	r.flushPromptResponse()
	a.answerAborts(r)
	if sc := r.script; sc.compact && r.ctx.Err() == nil {
		a.mu.Lock()
		auto := a.autoCompaction
		a.mu.Unlock()
		if auto {
			a.compact(r.ctx, "threshold", "", sc.summRetry)
		}
	}
	a.settle(r)
	if r.script.shutdown {
		// As the agent does when an extension called ctx.shutdown(): it
		// completes the run, then exits 0 on its own.
		fmt.Fprintln(a.stderr, "fake-knightcode: an extension asked for shutdown ([[shutdown]] marker)")
		a.out.exit(0)
	}
}

// retryWait sleeps before a retry; abort and abort_retry cut it short.
func (a *agent) retryWait(r *run, d time.Duration) bool {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	a.mu.Lock()
	r.retryCancel = cancel
	a.mu.Unlock()
	ok := sleepCtx(ctx, d)
	a.mu.Lock()
	r.retryCancel = nil
	a.mu.Unlock()
	return ok
}

func (a *agent) answerAborts(r *run) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r.ended = true
	for _, c := range r.aborts {
		a.respond(c, nil, nil)
	}
	r.aborts = nil
}

// settle clears the run and announces it under one lock, so a prompt accepted
// right after is never told the agent is still busy, and its events never
// come before this agent_settled.
func (a *agent) settle(r *run) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == r {
		a.run = nil
	}
	// As pi 1.6 does, the settle says whether the run was stopped.
	aborted := r.ctx.Err() != nil
	r.cancel()
	if !a.opts.Older {
		a.emit(obj("type", "agent_settled", "aborted", aborted))
	}
	a.out.setModes(false, false)
}

type loopResult struct {
	messages     []any
	retryable    bool
	errorMessage string
}

// agentLoop is one low-level agent run: turns until the reply needs no more
// tool calls and no steering or follow-up message is waiting.
func (a *agent) agentLoop(r *run, pending []turnMessage, attempt int) loopResult {
	res := loopResult{messages: []any{}}
	var outcomes []toolOutcome
	retrying := attempt > 0
	for len(pending) > 0 || len(outcomes) > 0 || retrying {
		a.emit(obj("type", "turn_start"))
		in := replyInput{attempt: attempt, outcomes: outcomes}
		if a.opts.SystemPrompt {
			a.sendSystemPrompt()
		}
		for _, p := range pending {
			um := newUserMessage(p.Text, p.Images)
			a.emit(obj("type", "message_start", "message", um))
			a.appendUserMessage(um, p.script)
			a.emit(obj("type", "message_end", "message", um))
			res.messages = append(res.messages, um)
			r.script = p.script
			in.prompts = append(in.prompts, stripMarkers(p.Text))
			in.images += len(p.Images)
			a.out.enable(p.script.crlf, p.script.splitWrites)
		}
		pending = nil
		if len(in.prompts) > 0 {
			r.quote = in.prompts
		} else if len(outcomes) == 0 {
			in.prompts = r.quote
		}
		in.sc = r.script
		in.answers = a.runExtensionUI(r, r.script)
		am, p := a.streamAssistant(r, in)
		res.messages = append(res.messages, am)
		if retrying && am.StopReason != "error" && am.StopReason != "aborted" {
			a.emit(obj("type", "auto_retry_end", "success", true, "attempt", attempt))
		}
		retrying = false
		if am.StopReason == "error" || am.StopReason == "aborted" {
			a.emit(obj("type", "turn_end", "message", am, "toolResults", []any{}))
			res.retryable = p.retryable && am.StopReason == "error"
			res.errorMessage = am.ErrorMessage
			return res
		}
		var results []any
		results, outcomes = a.runTools(r, am)
		res.messages = append(res.messages, results...)
		a.emit(obj("type", "turn_end", "message", am, "toolResults", results))
		if r.ctx.Err() != nil {
			return res
		}
		a.mu.Lock()
		pending = a.takeQueueLocked(&a.steering, a.steeringMode)
		if len(pending) == 0 && len(outcomes) == 0 {
			pending = a.takeQueueLocked(&a.followUp, a.followUpMode)
		}
		a.mu.Unlock()
	}
	return res
}

// takeQueueLocked dequeues per mode ("all" or "one-at-a-time") and reports
// the change.
func (a *agent) takeQueueLocked(q *[]queuedMessage, mode string) []turnMessage {
	n := len(*q)
	if n == 0 {
		return nil
	}
	if mode != "all" {
		n = 1
	}
	var out []turnMessage
	for _, m := range (*q)[:n] {
		out = append(out, turnMessage{m, parseScript(m.Text)})
	}
	*q = append([]queuedMessage(nil), (*q)[n:]...)
	a.emitQueueLocked()
	return out
}

func (a *agent) emitQueueLocked() {
	a.emit(obj("type", "queue_update", "steering", queueTexts(a.steering), "followUp", queueTexts(a.followUp)))
}

func queueTexts(q []queuedMessage) []string {
	texts := make([]string, 0, len(q))
	for _, m := range q {
		texts = append(texts, m.Text)
	}
	return texts
}

// appendUserMessage stores a user message; [[branch]] first moves the leaf
// back above the previous user message, leaving the old path as an abandoned
// branch, and [[label:NAME]] labels the new entry.
func (a *agent) appendUserMessage(um userMessage, sc *script) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sc.branch {
		path := a.sess.branch()
		for i := len(path) - 1; i >= 0; i-- {
			if decodeMessage(messageOf(path[i])).Role == "user" {
				a.sess.leaf = path[i].ParentID
				break
			}
		}
	}
	e := a.sess.appendMessage(um)
	if sc.label != "" {
		a.sess.append("label", "targetId", e.ID, "label", sc.label)
	}
}

// sleepCtx waits d unless ctx ends first; it reports whether ctx is still live.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
