//go:build !windows

package rpcconn

import (
	"os"
	"os/exec"
	"syscall"
)

// isolate puts the agent in its own process group, so that stopping it also
// stops the tools (shells, test runners) it started there, and where the
// system can, has it end when the app dies (see parentDeathSignal).
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeathSignal(cmd.SysProcAttr)
}

func terminate(p *os.Process) { signalGroup(p, syscall.SIGTERM) }

func kill(p *os.Process) { signalGroup(p, syscall.SIGKILL) }

func signalGroup(p *os.Process, sig syscall.Signal) {
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		_ = p.Signal(sig)
	}
}

func signalName(state *os.ProcessState) string {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
