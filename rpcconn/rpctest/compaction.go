package rpctest

import (
	"context"
	"fmt"
	"time"
)

// cmdCompact compacts on request. Like the agent, it first stops a run. Its
// cancel is registered before the handler returns, so an abort sent right
// after it always stops it.
func (a *agent) cmdCompact(c *command) (any, error) {
	ctx, cancel := context.WithCancel(context.Background())
	untrack := a.track(a.cancels, cancel)
	go func() {
		defer untrack()
		a.abortAndWait()
		data, err := a.compact(ctx, "manual", c.CustomInstructions, false)
		a.respond(c, data, err)
	}()
	return nil, errDeferred
}

// compact replaces the context before the last user message with a summary,
// announcing it with compaction_start and compaction_end. summRetry adds a
// summarization retry, which the older agent never reports.
func (a *agent) compact(ctx context.Context, reason, instructions string, summRetry bool) (any, error) {
	a.mu.Lock()
	msgs := a.sess.messages()
	if len(msgs) == 0 {
		a.mu.Unlock()
		return nil, errorf("Nothing to compact (no messages yet)")
	}
	tokensBefore := 0
	for _, m := range msgs {
		tokensBefore += tokenEstimate(string(m))
	}
	firstKept, keptTokens := "", 0
	path := a.sess.branch()
	for i := len(path) - 1; i >= 0; i-- {
		m := messageOf(path[i])
		keptTokens += tokenEstimate(string(m))
		if decodeMessage(m).Role == "user" {
			firstKept = path[i].ID
			break
		}
	}
	m := a.currentModel()
	a.compactions++
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.compactions--
		a.mu.Unlock()
	}()

	a.emit(obj("type", "compaction_start", "reason", reason))
	work := 20*time.Millisecond + 5*a.opts.Delay
	if summRetry && !a.opts.Older {
		a.emit(obj("type", "summarization_retry_scheduled", "attempt", 1, "maxAttempts", maxRetryAttempts,
			"delayMs", work.Milliseconds(), "errorMessage", "terminated"))
		sleepCtx(ctx, work)
		a.emit(obj("type", "summarization_retry_attempt_start", "source", "compaction", "reason", reason))
		sleepCtx(ctx, work)
		a.emit(obj("type", "summarization_retry_finished"))
	}
	if !sleepCtx(ctx, work) {
		a.emit(obj("type", "compaction_end", "reason", reason, "result", nil, "aborted", true, "willRetry", false))
		return nil, errorf("Compaction cancelled")
	}
	summary := fmt.Sprintf("The conversation so far (%d messages) was about testing a client against a fake agent.", len(msgs))
	if instructions != "" {
		summary += " Focus asked for: " + instructions
	}
	u := priced(m, usage{Input: tokensBefore, Output: tokenEstimate(summary)})
	result := obj("summary", summary, "firstKeptEntryId", firstKept, "tokensBefore", tokensBefore,
		"estimatedTokensAfter", tokenEstimate(summary)+keptTokens, "usage", u, "details", obj())
	a.mu.Lock()
	a.sess.append("compaction", "summary", summary, "firstKeptEntryId", firstKept,
		"tokensBefore", tokensBefore, "usage", u)
	a.mu.Unlock()
	a.emit(obj("type", "compaction_end", "reason", reason, "result", result, "aborted", false, "willRetry", false))
	return result, nil
}
