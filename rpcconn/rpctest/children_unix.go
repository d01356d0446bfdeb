//go:build !windows

package rpctest

import (
	"os/exec"
	"syscall"
)

// ownSession runs cmd in a session and process group of its own, as pi runs
// a tool: neither the agent's group nor its session holds it.
func ownSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
