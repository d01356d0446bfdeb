package rpcconn

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

// testLauncher runs the fake agent itself, as a launcher would run ssh, and
// records what rpcconn asked it.
type testLauncher struct {
	argv  []string
	agent string

	mu      sync.Mutex
	started []*StartError
	exited  []*Exit
}

func (l *testLauncher) Command() []string { return l.argv }

func (l *testLauncher) StartFailed(err *StartError) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.started = append(l.started, err)
	return "the launcher says: no luck"
}

func (l *testLauncher) Exited(exit *Exit) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.exited = append(l.exited, exit)
	return "lost its launcher"
}

func (l *testLauncher) Agent(stderrTail string) string {
	if strings.Contains(stderrTail, "diagnostic line") {
		return l.agent
	}
	return ""
}

func startLaunched(t *testing.T, l *testLauncher) (*Conn, error) {
	_, env := rpctest.Command()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // generous: a busy machine starts it slowly
	defer cancel()
	return Start(ctx, Options{Path: "shown-name", Launcher: l, Env: env, Dir: t.TempDir(),
		StopGrace: 2 * time.Second, TermGrace: 500 * time.Millisecond})
}

func TestLauncherRunsItsCommand(t *testing.T) {
	path, _ := rpctest.Command()
	// The launcher, not rpcconn, adds --mode rpc: here it passes a name
	// too, which the fake reports in get_state.
	l := &testLauncher{argv: []string{path, "--mode", "rpc", "--name", "launched", "--fake-stderr-lines=1"},
		agent: "/remote/bin/pi"}
	c, err := startLaunched(t, l)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer c.Close()
	if got := c.InitialState().SessionName; got != "launched" {
		t.Fatalf("session name %q: the launcher's argv was not run", got)
	}
	if c.Path() != "/remote/bin/pi" {
		t.Fatalf("Path %q, want what Agent named", c.Path())
	}
	c.Close()
	if exit := c.ExitInfo(); !exit.Expected || exit.Reason != "" || len(l.exited) != 0 {
		t.Fatalf("a closed connection asked the launcher about its exit: %+v, %d", exit, len(l.exited))
	}
}

func TestLauncherExplainsFailures(t *testing.T) {
	path, _ := rpctest.Command()
	t.Run("program missing", func(t *testing.T) {
		l := &testLauncher{argv: []string{filepath.Join(t.TempDir(), "no-ssh")}}
		_, err := startLaunched(t, l)
		var se *StartError
		if !errors.As(err, &se) || se.Kind != NotFound || !strings.HasPrefix(err.Error(), "the launcher says: no luck") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("exits at once", func(t *testing.T) {
		l := &testLauncher{argv: []string{path, "--fake-exit-at-once=255"}}
		_, err := startLaunched(t, l)
		var se *StartError
		if !errors.As(err, &se) || se.Kind != ExitedAtOnce {
			t.Fatalf("got %v", err)
		}
		if msg := err.Error(); msg != "the launcher says: no luck" || !strings.Contains(se.StderrTail, "could not start") {
			t.Fatalf("message %q, stderr %q: want the launcher's words alone, the tail kept in StderrTail", msg, se.StderrTail)
		}
		if se.Exit.Reason != "lost its launcher" || len(l.started) != 1 || l.started[0] != se {
			t.Fatalf("exit %+v, launcher asked %d times", se.Exit, len(l.started))
		}
	})
	t.Run("crashes later", func(t *testing.T) {
		l := &testLauncher{argv: []string{path, "--mode", "rpc"}}
		c, err := startLaunched(t, l)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if c.Path() != "shown-name" {
			t.Fatalf("Path %q: want Options.Path when Agent names nothing", c.Path())
		}
		if err := c.Prompt(testContext(t), Prompt{Message: "[[crash]] [[long:10]]"}); err != nil {
			t.Fatal(err)
		}
		evs := collectUntil(t, c, isType(TypeExit))
		exit := evs[len(evs)-1].(*Exit)
		if exit.Reason != "lost its launcher" || exit.Describe() != "lost its launcher" || exit.Code != 3 {
			t.Fatalf("exit %+v, described %q", exit, exit.Describe())
		}
	})
}
