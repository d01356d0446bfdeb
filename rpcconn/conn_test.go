package rpcconn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

func TestMain(m *testing.M) {
	rpctest.RunIfChild()
	code := m.Run()
	removeGeneratedSessions()
	os.Exit(code)
}

// startFake runs the fake agent (this test binary) with the given flags and
// closes it when the test ends.
func startFake(t *testing.T, args ...string) *Conn {
	t.Helper()
	c, err := startFakeErr(t, args...)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func startFakeErr(t *testing.T, args ...string) (*Conn, error) {
	path, env := rpctest.Command()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // generous: a busy machine starts it slowly
	defer cancel()
	return Start(ctx, Options{Path: path, Env: env, Args: args, Dir: t.TempDir(),
		StopGrace: 2 * time.Second, TermGrace: 500 * time.Millisecond})
}

func testContext(t *testing.T) context.Context {
	// Generous: a -race build on a 2-core CI machine decodes a 9 MiB
	// record several times over in one run.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// collectUntil gathers events until one satisfies stop (included).
func collectUntil(t *testing.T, c *Conn, stop func(Event) bool) []Event {
	t.Helper()
	ctx := testContext(t)
	var out []Event
	for {
		ev, err := c.NextEvent(ctx)
		if err != nil {
			t.Fatalf("waiting for events: %v (got %s)", err, typesOf(out))
		}
		out = append(out, ev)
		if stop(ev) {
			return out
		}
	}
}

func isType(name string) func(Event) bool {
	return func(ev Event) bool { return ev.EventType() == name }
}

func typesOf(evs []Event) string {
	var names []string
	for _, ev := range evs {
		names = append(names, ev.EventType())
	}
	return strings.Join(names, " ")
}

func find[T Event](evs []Event) []T {
	var out []T
	for _, ev := range evs {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func TestStartReturnsInitialState(t *testing.T) {
	c := startFake(t)
	st := c.InitialState()
	if st.Model == nil || st.Model.ID == "" || st.SessionID == "" {
		t.Fatalf("initial state %+v", st)
	}
	// The probe runs in the background; a 0.9.2 agent supports it.
	waitFor(t, func() bool { return c.Capabilities().Probed })
	if caps := c.Capabilities(); !caps.SettledEvent || len(caps.Missing) != 0 {
		t.Fatalf("capabilities %+v", caps)
	}
}

// waitFor polls cond, generously bounded. (testsupport.Eventually would
// do, but it imports this package.)
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStartupFailures(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "not-executable")
	os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644)

	cases := []struct {
		name string
		path string
		args []string
		kind StartFailure
		want string
	}{
		{"missing file", filepath.Join(dir, "nope"), nil, NotFound, "agent not found"},
		{"not on PATH", "knightcode-no-such-agent", nil, NotFound, "not on PATH"},
		{"not executable", plain, nil, NotExecutable, "not executable"},
		{"a folder", dir, nil, NotExecutable, "folder"},
		{"exits at once", "", []string{"--fake-exit-at-once=3"}, ExitedAtOnce, "exit code 3"},
		{"not the protocol, exits", "", []string{"--fake-not-protocol=exit"}, NotProtocol, "Usage: foo"},
		{"not the protocol, waits", "", []string{"--fake-not-protocol=wait"}, NotProtocol, "Usage: foo"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.path == "" {
				_, err = startFakeErr(t, tc.args...)
			} else {
				_, err = Start(testContext(t), Options{Path: tc.path})
			}
			var se *StartError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a StartError", err)
			}
			if se.Kind != tc.kind || !strings.Contains(se.Error(), tc.want) {
				t.Fatalf("got kind %d: %v; want kind %d mentioning %q", se.Kind, se, tc.kind, tc.want)
			}
			if tc.kind == ExitedAtOnce && (se.Exit.Code != 3 || !strings.Contains(se.StderrTail, "could not start")) {
				t.Fatalf("exit %+v, stderr %q", se.Exit, se.StderrTail)
			}
		})
	}
}

func TestGarbageBeforeProtocolIsReportedNotFatal(t *testing.T) {
	c := startFake(t, "--fake-garbage-first")
	if c.InitialState().SessionID == "" {
		t.Fatal("no state")
	}
	evs, _ := c.TakeEvents(nil)
	if len(find[*ProtocolError](evs)) == 0 {
		t.Fatalf("garbage not reported: %s", typesOf(evs))
	}
}

func TestNoAnswerTimesOut(t *testing.T) {
	path, env := rpctest.Command()
	_, err := Start(context.Background(), Options{Path: path, Env: env, Args: []string{"--fake-startup-delay=10s"},
		StartTimeout: 300 * time.Millisecond, StopGrace: 100 * time.Millisecond, TermGrace: 100 * time.Millisecond})
	var se *StartError
	if !errors.As(err, &se) || se.Kind != NoAnswer {
		t.Fatalf("got %v", err)
	}
}

func TestSlowStartIsReportedAndWaitedFor(t *testing.T) {
	path, env := rpctest.Command()
	tails := make(chan string, 2)
	// The fake writes its stderr lines as it starts, then waits: SlowStart
	// leaves a busy machine time to start it and read them, and the delay
	// time after that before the answer.
	c, err := Start(context.Background(), Options{Path: path, Env: env, Dir: t.TempDir(),
		Args:      []string{"--fake-startup-delay=3s", "--fake-stderr-lines=2"},
		SlowStart: time.Second, OnSlowStart: func(tail string) { tails <- tail }})
	if err != nil {
		t.Fatalf("a slow agent is not a failed one: %v", err)
	}
	defer c.Close()
	select {
	case tail := <-tails:
		if !strings.Contains(tail, "diagnostic line 2 of 2") {
			t.Fatalf("stderr tail %q", tail)
		}
	default:
		t.Fatal("OnSlowStart was not called")
	}
	if len(tails) != 0 {
		t.Fatal("OnSlowStart was called twice")
	}
}

func TestCrashMidStreamReportsExit(t *testing.T) {
	c := startFake(t, "--fake-stderr-lines=3")
	ctx := testContext(t)
	if err := c.Prompt(ctx, Prompt{Message: "[[crash]] [[long:20]]"}); err != nil {
		t.Fatal(err)
	}
	evs := collectUntil(t, c, isType(TypeExit))
	exit := evs[len(evs)-1].(*Exit)
	if exit.Expected || exit.Code != 3 || !strings.Contains(exit.StderrTail, "diagnostic line 3 of 3") ||
		!strings.Contains(exit.StderrTail, "simulated crash") {
		t.Fatalf("exit %+v", exit)
	}
	if len(find[*MessageUpdate](evs)) == 0 {
		t.Fatalf("crash was not mid-stream: %s", typesOf(evs))
	}
	if _, more := c.TakeEvents(nil); more {
		t.Fatal("events still open after Exit")
	}
	var exitErr *ExitError
	if _, err := c.GetState(ctx); !errors.As(err, &exitErr) || exitErr.Exit != exit {
		t.Fatalf("call after the crash: %v", err)
	}
}

func TestDeathFailsPendingCallsAtOnce(t *testing.T) {
	c := startFake(t)
	ctx := testContext(t)
	// A stopped agent cannot answer, so get_state stays pending until the
	// process is killed from outside.
	stopProcess(t, c.PID())
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.Kill(c.PID(), syscall.SIGKILL)
	}()
	// The error says the death failed the call, not its context's
	// deadline: no clock needed.
	_, err := c.GetState(ctx)
	var exitErr *ExitError
	if !errors.As(err, &exitErr) || exitErr.Exit.Signal != "killed" || exitErr.Exit.Expected {
		t.Fatalf("pending call got %v", err)
	}
}

func TestCloseStopsStubbornAgent(t *testing.T) {
	c := startFake(t, "--fake-ignore-stdin-close", "--fake-ignore-sigterm")
	pid := c.PID()
	start := time.Now()
	c.Close()
	if took := time.Since(start); took < time.Second {
		t.Fatalf("closed in %v: grace periods were not honoured", took)
	}
	exit := c.ExitInfo()
	if exit == nil || !exit.Expected || exit.Signal != "killed" {
		t.Fatalf("exit %+v", exit)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("agent process %d still exists (kill 0: %v)", pid, err)
	}
}

func TestCloseIsGentleWithWellBehavedAgent(t *testing.T) {
	c := startFake(t)
	start := time.Now()
	c.Close()
	exit := c.ExitInfo()
	if exit.Code != 0 || exit.Signal != "" || !exit.Expected {
		t.Fatalf("exit %+v after %v", exit, time.Since(start))
	}
	if _, err := c.GetState(context.Background()); !errors.As(err, new(*ExitError)) {
		t.Fatalf("call after close: %v", err)
	}
}

func TestNoGoroutineLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := 0; i < 3; i++ {
		c := startFake(t)
		ctx := testContext(t)
		c.Prompt(ctx, Prompt{Message: "[[tool:bash:seq 3]]"})
		c.Bash(ctx, "echo hi", func(string) {})
		collectUntil(t, c, isType(TypeAgentSettled))
		c.Close()
	}
	stubborn := startFake(t, "--fake-ignore-stdin-close")
	stubborn.Close()
	// The connections' goroutines end a moment after Close; on a busy
	// machine, a long moment.
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines before, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

var errDeadline = context.DeadlineExceeded

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
