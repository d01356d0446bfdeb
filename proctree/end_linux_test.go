package proctree

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startTagged starts "sh -c script" with tag in its environment, in a
// process group of its own, and returns it (already waited for when the
// script ends by itself, as the caller chooses).
func startTagged(t *testing.T, tag, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), EnvVar(tag))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// waitFor polls cond for up to 10 s; a bound, not a timing assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func alive(pid int) bool {
	p, ok := readProc(pid)
	return ok && !p.zombie
}

func TestEndReachesToolsInSessionsOfTheirOwn(t *testing.T) {
	tag := NewTag()
	// As pi runs a tool: setsid, so neither the agent's group nor its
	// session holds it; it also ignores SIGTERM, so only SIGKILL ends it.
	cmd := startTagged(t, tag, `setsid sh -c 'trap "" TERM; sleep 300' & sleep 300`)
	waitFor(t, "agent and tool", func() bool { return len(Tagged(tag)) >= 4 })
	agent := cmd.Process.Pid

	End(tag, agent, 200*time.Millisecond)
	cmd.Wait()
	if left := Tagged(tag); len(left) > 0 {
		t.Fatalf("still running with the tag: %v", left)
	}
	if left := InGroup(agent); len(left) > 0 {
		t.Fatalf("still in the agent's group: %v (%+v)", left, mustProc(left[0]))
	}
}

func TestEndReapsAdoptedOrphans(t *testing.T) {
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { SetSubreaper(false) })
	tag := NewTag()
	// The "agent" starts a tool in its own session and exits at once: the
	// tool is adopted by this process.
	cmd := startTagged(t, tag, `setsid sleep 300 & echo $!`)
	out, _ := cmd.Process.Wait()
	_ = out
	var orphan int
	waitFor(t, "the orphan adopted", func() bool {
		for _, pid := range Tagged(tag) {
			if p, ok := readProc(pid); ok && p.ppid == os.Getpid() {
				orphan = pid
				return true
			}
		}
		return false
	})

	End(tag, cmd.Process.Pid, time.Second)
	if _, ok := readProc(orphan); ok {
		t.Fatalf("the adopted orphan %d is still in /proc (a zombie not reaped?)", orphan)
	}
}

func TestEndOrphansEndsOnlyWhatADeadAppLeft(t *testing.T) {
	// A tag naming this pid with another start time: the app that made it
	// is gone, its pid reused.
	dead := strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(appStart+1, 10) + ".1"
	mine := NewTag()
	left := startTagged(t, dead, `exec sleep 300`)
	ours := startTagged(t, mine, `exec sleep 300`)
	t.Cleanup(func() { End(mine, ours.Process.Pid, 0); ours.Wait() })
	waitFor(t, "both started", func() bool { return len(Tagged(dead)) == 1 && len(Tagged(mine)) == 1 })

	EndOrphans()
	left.Wait()
	if got := Tagged(dead); len(got) > 0 {
		t.Errorf("a dead app's process still runs: %v", got)
	}
	if got := Tagged(mine); len(got) != 1 {
		t.Errorf("this app's agent was ended too: %v", got)
	}
}

func TestTagNamesThisApp(t *testing.T) {
	pid, start, ok := owner(NewTag())
	if !ok || pid != os.Getpid() || start != appStart || start == 0 {
		t.Fatalf("owner = %d %d %v; want %d %d", pid, start, ok, os.Getpid(), appStart)
	}
	if a, b := NewTag(), NewTag(); a == b || !strings.HasPrefix(a, strconv.Itoa(pid)+".") {
		t.Fatalf("tags %q %q", a, b)
	}
}

func mustProc(pid int) proc { p, _ := readProc(pid); return p }
