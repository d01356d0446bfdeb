//go:build windows

package rpcconn

import (
	"os"
	"os/exec"
)

func isolate(cmd *exec.Cmd) {}

// terminate has no gentle form on Windows without a console; closing stdin
// already asked the agent to leave, so this is the hard stop.
func terminate(p *os.Process) { _ = p.Kill() }

func kill(p *os.Process) { _ = p.Kill() }

func signalName(state *os.ProcessState) string { return "" }
