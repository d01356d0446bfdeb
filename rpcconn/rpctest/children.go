package rpctest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// childSpec is a [[child:MODE:SECONDS]] marker: a process the fake leaves
// running, as a tool of the agent would.
type childSpec struct {
	mode    string // session, group or holding
	seconds int
}

func parseChild(arg string) childSpec {
	mode, secs, _ := strings.Cut(arg, ":")
	c := childSpec{mode: mode, seconds: 300}
	if secs != "" {
		c.seconds = clampInt(secs, 0, 86_400)
	}
	return c
}

// startChildren starts the children a prompt asks for before its reply
// streams, so a test that saw the reply begin knows they run. They are
// never waited for: ending them is the app's job once the fake is gone.
func (a *agent) startChildren(sc *script) {
	for _, c := range sc.children {
		cmd := exec.Command("sleep", strconv.Itoa(c.seconds))
		switch c.mode {
		case "session":
			ownSession(cmd)
		case "group":
			// Stays in the fake's process group.
		case "holding":
			ownSession(cmd)
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		default:
			fmt.Fprintf(a.stderr, "fake-knightcode: [[child:%s]]: want session, group or holding\n", c.mode)
			continue
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(a.stderr, "fake-knightcode: [[child:%s]]: %v\n", c.mode, err)
			continue
		}
		fmt.Fprintf(a.stderr, "fake-knightcode: started child %d (%s, sleep %d)\n", cmd.Process.Pid, c.mode, c.seconds)
	}
}
