package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/proctree"
	"knightcode.ai/desktop/rpcconn"
)

// TestRealAgentKilledEndsItsTools: pi runs each tool in a session of its
// own, and when pi is killed (not asked to stop) the tool is re-parented
// and runs on. The connection must end it all the same: after pi is
// SIGKILLed and Close returns, no `sleep` it started is left.
func TestRealAgentKilledEndsItsTools(t *testing.T) {
	a := startAgent(t)
	ctx := stepContext(t)
	tag := a.conn.Tag()
	a.send(t, ctx, rpcconn.Prompt{Message: "[[bash:sleep 300]]"})
	a.until(t, ctx, "the bash tool to start", func(ev rpcconn.Event) bool {
		_, ok := ev.(*rpcconn.ToolExecutionStart)
		return ok
	}, nil)

	sleeper := waitForSleep(t, tag)
	t.Logf("pi %d runs the tool as pid %d (%s)", a.conn.PID(), sleeper, groupAndSession(sleeper))

	if err := syscall.Kill(a.conn.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.conn.Done():
	case <-time.After(stepTimeout):
		t.Fatal("no exit after SIGKILL")
	}
	a.conn.Close()
	if exit := a.conn.ExitInfo(); exit == nil || exit.Signal != "killed" {
		t.Errorf("exit = %+v, want killed", exit)
	}
	if left := sleeps(tag); len(left) > 0 {
		t.Fatalf("sleep still running after pi was killed and Close returned: %v", left)
	}
	if left := proctree.Tagged(tag); len(left) > 0 {
		t.Fatalf("processes with pi's tag still running: %v", left)
	}
}

// waitForSleep waits, bounded, for the tool's sleep to run.
func waitForSleep(t *testing.T, tag string) int {
	t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for {
		if s := sleeps(tag); len(s) > 0 {
			return s[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no sleep with pi's tag after %v", stepTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sleeps lists the live `sleep 300` processes carrying tag.
func sleeps(tag string) []int {
	var out []int
	for _, pid := range proctree.Tagged(tag) {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if argv := bytes.Split(cmdline, []byte{0}); len(argv) >= 2 && bytes.HasSuffix(argv[0], []byte("sleep")) && string(argv[1]) == "300" {
			out = append(out, pid)
		}
	}
	return out
}

func groupAndSession(pid int) string {
	pgid, _ := syscall.Getpgid(pid)
	sid, _, _ := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0)
	return fmt.Sprintf("pgid %d, sid %d", pgid, sid)
}
