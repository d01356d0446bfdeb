//go:build !windows

package agentsetup

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own, so a cancel reaches
// what npm starts too.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
