//go:build windows

package rpcconn

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func isolate(cmd *exec.Cmd) {}

func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

// terminate has no gentle form on Windows without a console; closing stdin
// already asked the agent to leave, so this is the hard stop.
func terminate(p *os.Process) { killTree(p) }

func kill(p *os.Process) { killTree(p) }

// createNoWindow keeps taskkill from flashing a console window.
const createNoWindow = 0x08000000

// killTree kills the agent and every process it started: Windows has no
// process groups to signal, and proctree.End does nothing here, so the
// tree is named while the agent still exists to root it.
func killTree(p *os.Process) {
	cmd := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid))
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	if cmd.Run() != nil {
		_ = p.Kill()
	}
}

func signalName(state *os.ProcessState) string { return "" }

func pipeEmpty(f *os.File) bool { return false }

const pipeEmptyKnown = false
