//go:build !unix

package sshtest

import (
	"os"
	"os/exec"
	"syscall"
)

// Elsewhere Available refuses to run sshd; these only keep the package
// building.

func ownGroup(*exec.Cmd) {}

func kill(pid int, _ syscall.Signal) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
