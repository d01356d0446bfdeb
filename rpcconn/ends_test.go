//go:build linux

package rpcconn

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/proctree"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// endWays are the ways an agent ends: asked (Close), by itself, by a crash,
// killed. Each starts the prompt and ends the agent.
var endWays = []struct {
	name   string
	prompt string // after the [[child]] marker
	end    func(t *testing.T, c *Conn)
}{
	{"close", "hello", func(t *testing.T, c *Conn) { c.Close() }},
	{"exits-itself", "[[shutdown]]", func(t *testing.T, c *Conn) { waitDone(t, c) }},
	{"crash", "[[crash]] [[long:20]]", func(t *testing.T, c *Conn) { waitDone(t, c) }},
	{"sigkill", "hello", func(t *testing.T, c *Conn) {
		syscall.Kill(c.PID(), syscall.SIGKILL)
		waitDone(t, c)
	}},
}

var childModes = []string{"session", "group", "holding"}

func TestAgentsEndWithTheirTools(t *testing.T) {
	for _, reaper := range []bool{false, true} {
		name := "init-adopts-orphans"
		if reaper {
			name = "app-is-subreaper"
		}
		t.Run(name, func(t *testing.T) {
			if reaper {
				if err := proctree.BecomeSubreaper(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { proctree.SetSubreaper(false) })
			}
			for _, way := range endWays {
				for _, mode := range childModes {
					t.Run(way.name+"/"+mode, func(t *testing.T) {
						c := startFake(t)
						if err := c.Prompt(testContext(t), Prompt{Message: "[[child:" + mode + "]] " + way.prompt}); err != nil {
							t.Fatal(err)
						}
						child := childPid(t, c)
						way.end(t, c)
						c.Close()
						assertNothingLeft(t, c, child, reaper)
					})
				}
			}
		})
	}
}

// TestLeaveDescendantsLeavesTools shows that what the tests above check
// is End's doing: without it the tools outlive their agent.
func TestLeaveDescendantsLeavesTools(t *testing.T) {
	path, env := rpctest.Command()
	c, err := Start(testContext(t), Options{Path: path, Env: env, Dir: t.TempDir(), LeaveDescendants: true,
		StopGrace: 2 * time.Second, TermGrace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proctree.End(c.Tag(), 0, 0) })
	if err := c.Prompt(testContext(t), Prompt{Message: "[[child:session]]"}); err != nil {
		t.Fatal(err)
	}
	child := childPid(t, c)
	c.Close()
	if !live(child) {
		t.Fatalf("the tool %d ended with its agent although nothing ended it", child)
	}
	if got := proctree.Tagged(c.Tag()); len(got) != 1 || got[0] != child {
		t.Fatalf("tagged after Close: %v, want [%d]", got, child)
	}
}

func waitDone(t *testing.T, c *Conn) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(time.Minute):
		t.Fatal("the agent did not end in a minute")
	}
}

// assertNothingLeft checks /proc: no process carries the agent's tag, none
// is left in its group, and the child is gone. When this process is the
// subreaper, the child must not even be left as a zombie: End reaps it.
func assertNothingLeft(t *testing.T, c *Conn, child int, reaper bool) {
	t.Helper()
	if got := proctree.Tagged(c.Tag()); len(got) > 0 {
		t.Errorf("still running with the agent's tag: %v", got)
	}
	if got := proctree.InGroup(c.PID()); len(got) > 0 {
		t.Errorf("still running in the agent's group: %v", got)
	}
	if live(child) {
		t.Errorf("the child %d still runs", child)
	}
	if reaper {
		if st, ok := procState(child); ok && st == "Z" && parentOf(child) == os.Getpid() {
			t.Errorf("the child %d was adopted and left a zombie", child)
		}
	}
}

func live(pid int) bool {
	st, ok := procState(pid)
	return ok && st != "Z" && st != "X"
}

func procStat(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := strings.LastIndexByte(string(b), ')')
	return strings.Fields(string(b[i+1:]))
}

func procState(pid int) (string, bool) {
	f := procStat(pid)
	if len(f) < 2 {
		return "", false
	}
	return f[0], true
}

func parentOf(pid int) int {
	f := procStat(pid)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
