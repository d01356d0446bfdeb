//go:build unix && !linux

package rpcconn

import (
	"os"
	"os/exec"
	"syscall"
)

// parentDeathSignal: only Linux (and FreeBSD, not used here) has one.
func parentDeathSignal(attr *syscall.SysProcAttr) {}

func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

func pipeEmpty(f *os.File) bool { return false }

const pipeEmptyKnown = false
