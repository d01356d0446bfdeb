package rpctest

import (
	"context"
	"strings"
)

// cmdBash fakes a shell command (see fakeShell), streaming its output as
// bash_execution_update events that carry the command's id, and stores it
// for the next prompt's context.
//
// The cancel is registered before the handler returns, so an abort_bash sent
// right after the bash command always finds it.
func (a *agent) cmdBash(c *command) (any, error) {
	if strings.TrimSpace(c.Command) == "" {
		return nil, errorf("bash needs a command")
	}
	ctx, cancel := context.WithCancel(context.Background())
	untrack := a.track(a.bashCancels, cancel)
	go func() {
		defer untrack()
		a.respond(c, a.bash(ctx, c), nil)
	}()
	return nil, errDeferred
}

func (a *agent) bash(ctx context.Context, c *command) object {
	sr := fakeShell(c.Command, a.cwd)
	cancelled := !sleepCtx(ctx, sr.wait)
	var sent strings.Builder
	if !cancelled {
		for _, chunk := range a.outputChunks(sr.output) {
			if !sleepCtx(ctx, a.opts.Delay) {
				cancelled = true
				break
			}
			ev := obj("type", "bash_execution_update")
			if c.ID != nil {
				ev = ev.with("id", c.ID)
			}
			a.emit(ev.with("delta", chunk))
			sent.WriteString(chunk)
		}
	}
	kept, truncated, fullPath := truncateTail(sent.String())
	msg := bashMessage{Role: "bashExecution", Command: c.Command, Output: kept,
		Cancelled: cancelled, Truncated: truncated, Timestamp: nowMillis()}
	data := obj("output", kept)
	if !cancelled {
		msg.ExitCode = &sr.exitCode
		data = data.with("exitCode", sr.exitCode)
	}
	data = append(data, obj("cancelled", cancelled, "truncated", truncated)...)
	if fullPath != "" {
		msg.FullOutputPath = &fullPath
		data = data.with("fullOutputPath", fullPath)
	}
	a.mu.Lock()
	a.sess.appendMessage(msg)
	a.mu.Unlock()
	return data
}

// outputChunks is one chunk a line when output is paced by --fake-delay,
// otherwise lines gathered into chunks of about 4 KiB, as a pipe delivers.
func (a *agent) outputChunks(output string) []string {
	lines := strings.SplitAfter(output, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if a.opts.Delay > 0 {
		return lines
	}
	var chunks []string
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		if b.Len() >= 4096 {
			chunks = append(chunks, b.String())
			b.Reset()
		}
	}
	if b.Len() > 0 {
		chunks = append(chunks, b.String())
	}
	return chunks
}

func (a *agent) cmdAbortBash(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.bashCancels.cancelAll()
	return nil, nil
}
