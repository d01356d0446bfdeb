package remote_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// The test binary is also the fake agent that the "remote" side runs.
func TestMain(m *testing.M) {
	rpctest.RunIfChild()
	os.Exit(m.Run())
}

// fakeAgent puts the fake agent on the remote PATH as name, with fake
// flags before the arguments it is given.
func fakeAgent(t *testing.T, srv *sshtest.Server, name string, flags ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Under -race a Go program sleeps a second at exit (GORACE's
	// atexit_sleep_ms), which would count as the agent's time to stop.
	return srv.Exec(name, []string{rpctest.EnvChild + "=1", "GORACE=atexit_sleep_ms=0"}, append([]string{exe}, flags...)...)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// startSpec starts the agent of spec; Close is left to the test but done at
// the end in any case.
func startSpec(t *testing.T, spec remote.Spec) *rpcconn.Conn {
	t.Helper()
	return startOptions(t, spec.Options())
}

// startOptions is startSpec with a Spec's options changed by the test.
func startOptions(t *testing.T, opts rpcconn.Options) *rpcconn.Conn {
	t.Helper()
	c, err := rpcconn.Start(testContext(t), opts)
	if err != nil {
		t.Fatalf("Start over ssh: %v", err)
	}
	t.Cleanup(func() {
		c.Close()
		if t.Failed() {
			t.Logf("ssh stderr:\n%s", c.StderrTail())
		}
	})
	return c
}

// startFails starts the agent of spec, which must fail, and returns the
// failure. It must fail by itself, as the remote side or ssh said, not by
// running out of time: the kind the caller checks says which, and a start
// that waited for its answer until StartTimeout is reported here. How long
// it took is only logged: a busy machine makes any fixed figure wrong.
func startFails(t *testing.T, spec remote.Spec) (*remote.Error, error) {
	t.Helper()
	began := time.Now()
	c, err := rpcconn.Start(testContext(t), spec.Options())
	took := time.Since(began)
	if err == nil {
		c.Close()
		t.Fatalf("Start succeeded")
	}
	t.Logf("failed after %v: %v", took.Round(time.Millisecond), err)
	var se *rpcconn.StartError
	if errors.As(err, &se) && se.Kind == rpcconn.NoAnswer {
		t.Errorf("the start waited until its timeout instead of failing: %v", err)
	}
	return spec.Host.Classify(err), err
}

// waitGone waits, with testsupport's generous bound, until none of pids
// runs and no process's command line holds any of words, and fails naming
// those still there. Processes end a while after whatever ended them; on a
// busy machine that while can be long.
func waitGone(t *testing.T, what string, pids []int, words ...string) {
	t.Helper()
	testsupport.EventuallyGone(t, what, func() string {
		var left []string
		for _, pid := range pids {
			if p, ok := sshtest.ReadProc(pid); ok && p.Alive() {
				left = append(left, fmt.Sprintf("%+v", p))
			}
		}
		for _, w := range words {
			for _, p := range sshtest.ProcessesWith(w) {
				left = append(left, fmt.Sprintf("%+v", p))
			}
		}
		return strings.Join(left, "; ")
	})
}

// delta is one streamed text delta and when it arrived.
type delta struct {
	text string
	at   time.Time
}

// run is what one prompt's run brought.
type run struct {
	deltas []delta
	// text is the final assistant message's text.
	text   string
	events int
}

// collectRun reads events until the run settles.
func collectRun(t *testing.T, c *rpcconn.Conn) run {
	t.Helper()
	ctx := testContext(t)
	var r run
	var tracker rpcconn.RunTracker
	for {
		ev, err := c.NextEvent(ctx)
		if err != nil {
			t.Fatalf("waiting for events: %v", err)
		}
		r.events++
		switch e := ev.(type) {
		case *rpcconn.MessageUpdate:
			if e.Delta.Type == rpcconn.DeltaTextDelta {
				r.deltas = append(r.deltas, delta{e.Delta.Delta, time.Now()})
			}
		case *rpcconn.MessageEnd:
			if e.Message.Role == "assistant" {
				r.text = e.Message.Content.Text()
			}
		case *rpcconn.Exit:
			t.Fatalf("the agent exited during the run: %s\n%s", e.Describe(), e.StderrTail)
		}
		if tracker.Apply(ev, c.Capabilities().SettledEvent) {
			return r
		}
	}
}

func (r run) joined() string {
	var b strings.Builder
	for _, d := range r.deltas {
		b.WriteString(d.text)
	}
	return b.String()
}

// waitExit reads events until the Exit.
func waitExit(t *testing.T, c *rpcconn.Conn) *rpcconn.Exit {
	t.Helper()
	ctx := testContext(t)
	for {
		ev, err := c.NextEvent(ctx)
		if err != nil {
			t.Fatalf("waiting for the exit: %v", err)
		}
		if e, ok := ev.(*rpcconn.Exit); ok {
			return e
		}
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mv(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// findFile looks for a file called name anywhere in the server's folder.
func findFile(srv *sshtest.Server, name string) (string, bool) {
	var found string
	filepath.WalkDir(srv.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == name {
			found = p
		}
		return nil
	})
	return found, found != ""
}

// downHost is a host whose sshd has stopped: nothing listens on its port.
func downHost(t *testing.T) (*sshtest.Server, remote.Host) {
	t.Helper()
	srv := sshtest.Start(t, sshtest.Options{})
	port := srv.Port
	srv.Stop()
	h := srv.Host()
	h.Target = remote.Target{Host: "127.0.0.1", Port: port}
	return srv, h
}
