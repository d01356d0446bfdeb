package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// stepTimeout bounds one step. A step takes a few seconds; the slack is for
// a 2-core CI machine under -race, and it is a deadline, not an assertion.
const stepTimeout = 3 * time.Minute

// agent is one real pi behind rpcconn, shared by the steps of a test because
// pi takes seconds to start. Only the test goroutine reads its events.
type agent struct {
	srv  *llmserver.Server
	env  *pienv.Env
	conn *rpcconn.Conn
	runs rpcconn.RunTracker
	// seen is every event so far, for the checks over the whole session.
	seen []rpcconn.Event
	// prompts are the texts sent as new user messages, in order, to check
	// the transcript against.
	prompts []string
}

func startAgent(t *testing.T, opts ...pienv.Option) *agent {
	t.Helper()
	srv := llmserver.Start(t)
	env := pienv.Setup(t, srv.URL(), opts...)

	ctx, cancel := context.WithTimeout(t.Context(), stepTimeout)
	defer cancel()
	began := time.Now()
	conn, err := rpcconn.Start(ctx, rpcconn.Options{Path: env.Binary, Args: env.Args, Env: env.Env, ExactEnv: true, Dir: env.WorkDir})
	if err != nil {
		t.Fatalf("starting pi: %v", err)
	}
	t.Logf("%s answered get_state after %v (pid %d)", pienv.Selected(), time.Since(began).Round(time.Millisecond), conn.PID())
	a := &agent{srv: srv, env: env, conn: conn}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last events: %s", sequence(tail(a.seen, 60)))
			t.Logf("pi stderr:\n%s", conn.StderrTail())
		}
		conn.Close()
	})
	return a
}

func stepContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), stepTimeout)
	t.Cleanup(cancel)
	return ctx
}

// next returns the next event and whether the run settled with it. Every
// event goes through here so the run tracker and the session log see all.
func (a *agent) next(t *testing.T, ctx context.Context) (rpcconn.Event, bool) {
	t.Helper()
	ev, err := a.conn.NextEvent(ctx)
	if err != nil {
		t.Fatalf("waiting for an event: %v\nlast events: %s", err, sequence(tail(a.seen, 40)))
	}
	a.seen = append(a.seen, ev)
	if pe, ok := ev.(*rpcconn.ProtocolError); ok {
		t.Errorf("protocol error surfaced: %v (response %+v)", pe, pe.Response)
	}
	return ev, a.runs.Apply(ev, a.conn.Capabilities().SettledEvent)
}

// drain takes the events already queued without waiting for more: a
// cancelled context makes NextEvent a poll.
func (a *agent) drain(t *testing.T) []rpcconn.Event {
	t.Helper()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	var out []rpcconn.Event
	for {
		ev, err := a.conn.NextEvent(done)
		if err != nil {
			return out
		}
		a.seen = append(a.seen, ev)
		a.runs.Apply(ev, a.conn.Capabilities().SettledEvent)
		if pe, ok := ev.(*rpcconn.ProtocolError); ok {
			t.Errorf("protocol error surfaced: %v (response %+v)", pe, pe.Response)
		}
		out = append(out, ev)
	}
}

// dialogFunc answers an extension dialog; ok false means it was not expected.
type dialogFunc func(*rpcconn.ExtensionUIRequest) (answer rpcconn.UIAnswer, ok bool)

// allowBash answers the UI extension's tool_call guard with yes.
func allowBash(r *rpcconn.ExtensionUIRequest) (rpcconn.UIAnswer, bool) {
	if r.Method == rpcconn.UIConfirm && r.Title == "Allow bash?" {
		return rpcconn.AnswerConfirmed(true), true
	}
	return rpcconn.UIAnswer{}, false
}

// untilSettled collects events until the run settles as RunTracker decides,
// answering dialogs with answer (nil: none expected).
func (a *agent) untilSettled(t *testing.T, ctx context.Context, answer dialogFunc) []rpcconn.Event {
	t.Helper()
	var out []rpcconn.Event
	for {
		ev, settled := a.next(t, ctx)
		out = append(out, ev)
		if r, ok := ev.(*rpcconn.ExtensionUIRequest); ok && r.IsDialog() {
			a.answer(t, r, answer)
		}
		// RunTracker counts an exit as settling the run; here it is a failure.
		if exit, ok := ev.(*rpcconn.Exit); ok {
			t.Fatalf("pi exited during a run: %s\nevents: %s", exit.Status(), sequence(out))
		}
		if settled {
			return out
		}
	}
}

// until collects events up to and including the first that stop accepts.
func (a *agent) until(t *testing.T, ctx context.Context, what string, stop func(rpcconn.Event) bool, answer dialogFunc) []rpcconn.Event {
	t.Helper()
	var out []rpcconn.Event
	for {
		ev, _ := a.next(t, ctx)
		out = append(out, ev)
		if stop(ev) {
			return out
		}
		if r, ok := ev.(*rpcconn.ExtensionUIRequest); ok && r.IsDialog() {
			a.answer(t, r, answer)
		}
		if exit, ok := ev.(*rpcconn.Exit); ok {
			t.Fatalf("pi exited (%s) while waiting for %s\nevents: %s", exit.Status(), what, sequence(out))
		}
	}
}

func (a *agent) answer(t *testing.T, r *rpcconn.ExtensionUIRequest, answer dialogFunc) {
	t.Helper()
	var reply rpcconn.UIAnswer
	ok := false
	if answer != nil {
		reply, ok = answer(r)
	}
	if !ok {
		t.Errorf("unexpected dialog %s %q (%q); cancelling it", r.Method, r.Title, r.Message)
		reply = rpcconn.AnswerCancelled()
	}
	if err := a.conn.Respond(r.ID, reply); err != nil {
		t.Fatalf("answering %s %q: %v", r.Method, r.Title, err)
	}
}

// prompt sends a new prompt and waits for its run to settle.
func (a *agent) prompt(t *testing.T, ctx context.Context, text string, answer dialogFunc) []rpcconn.Event {
	t.Helper()
	a.send(t, ctx, rpcconn.Prompt{Message: text})
	return a.untilSettled(t, ctx, answer)
}

func (a *agent) send(t *testing.T, ctx context.Context, p rpcconn.Prompt) {
	t.Helper()
	if err := a.conn.Prompt(ctx, p); err != nil {
		t.Fatalf("prompt %q: %v", p.Message, err)
	}
	a.prompts = append(a.prompts, p.Message)
}

// requestsSince returns the model-server requests after the first n.
func (a *agent) requestsSince(n int) []llmserver.Request {
	reqs := a.srv.Requests()
	if n > len(reqs) {
		return nil
	}
	return reqs[n:]
}

func find[T rpcconn.Event](evs []rpcconn.Event) []T {
	var out []T
	for _, ev := range evs {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func tail[T any](s []T, n int) []T {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// sequence writes events compactly, runs of the same kind folded as ×N, so
// a log line shows the shape of a run.
func sequence(evs []rpcconn.Event) string {
	var parts []string
	prev, count := "", 0
	flush := func() {
		if count == 1 {
			parts = append(parts, prev)
		} else if count > 1 {
			parts = append(parts, fmt.Sprintf("%s×%d", prev, count))
		}
	}
	for _, ev := range evs {
		k := describe(ev)
		if k == prev {
			count++
			continue
		}
		flush()
		prev, count = k, 1
	}
	flush()
	return strings.Join(parts, " ")
}

func describe(ev rpcconn.Event) string {
	switch e := ev.(type) {
	case *rpcconn.MessageStart:
		return "message_start(" + e.Message.Role + ")"
	case *rpcconn.MessageEnd:
		if e.Message.StopReason != "" {
			return "message_end(" + e.Message.Role + "," + e.Message.StopReason + ")"
		}
		return "message_end(" + e.Message.Role + ")"
	case *rpcconn.MessageUpdate:
		return "message_update(" + e.Delta.Type + ")"
	case *rpcconn.ExtensionUIRequest:
		return "extension_ui_request(" + e.Method + ")"
	case *rpcconn.QueueUpdate:
		return fmt.Sprintf("queue_update(steer=%d,followUp=%d)", len(e.Steering), len(e.FollowUp))
	case *rpcconn.AgentEnd:
		if e.WillRetry {
			return "agent_end(willRetry)"
		}
	case *rpcconn.ToolExecutionEnd:
		if e.IsError {
			return "tool_execution_end(isError)"
		}
	case *rpcconn.Exit:
		return "exit(" + e.Status() + ")"
	}
	return ev.EventType()
}
