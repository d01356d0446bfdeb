//go:build !windows

package rpcconn

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestExitShownWhileAToolHoldsStdout: a tool that keeps the agent's stdout
// and stderr open must not hold the exit back, however long drainGrace is,
// and nothing the agent wrote before it exited may be lost.
func TestExitShownWhileAToolHoldsStdout(t *testing.T) {
	saved := drainGrace
	drainGrace = time.Hour
	t.Cleanup(func() { drainGrace = saved })
	const deltas = 200
	for round := range 5 {
		c := startFake(t)
		// The fake exits by itself once the reply is out.
		if err := c.Prompt(testContext(t), Prompt{Message: "[[child:holding]] [[long:200]] [[shutdown]]"}); err != nil {
			t.Fatal(err)
		}
		childPid(t, c)
		select {
		case <-c.Done():
		case <-time.After(30 * time.Second):
			t.Fatalf("round %d: no exit 30 s after the agent was asked to end; drainGrace is %v", round, drainGrace)
		}
		evs := collectUntil(t, c, isType(TypeExit))
		n := 0
		for _, u := range find[*MessageUpdate](evs) {
			if u.Delta.Type == DeltaTextDelta {
				n++
			}
		}
		if n != deltas {
			t.Fatalf("round %d: %d text deltas before the exit, want %d", round, n, deltas)
		}
		if len(find[*AgentSettled](evs)) != 1 {
			t.Fatalf("round %d: the last records before the exit are missing: %s", round, typesOf(evs[max(0, len(evs)-5):]))
		}
		exit := evs[len(evs)-1].(*Exit)
		if !exit.EndedByItself() {
			t.Fatalf("round %d: exit %+v", round, exit)
		}
	}
}

var startedChild = regexp.MustCompile(`started child (\d+)`)

// childPid waits for the fake to say on stderr which child it started.
func childPid(t *testing.T, c *Conn) int {
	t.Helper()
	var pid int
	waitFor(t, func() bool {
		m := startedChild.FindStringSubmatch(c.StderrTail())
		if m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		return m != nil
	})
	return pid
}
