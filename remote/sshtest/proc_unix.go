//go:build unix

package sshtest

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func kill(pid int, sig syscall.Signal) { syscall.Kill(pid, sig) }
