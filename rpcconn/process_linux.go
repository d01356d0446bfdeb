package rpcconn

import (
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// parentDeathSignal has the kernel send the agent SIGTERM when the app dies,
// SIGKILL included: the agent then ends its tools itself, and what it misses
// is ended by proctree.EndOrphans at the app's next start.
func parentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }

// The kernel sends the parent-death signal when the THREAD that forked the
// child exits, not the process (go.dev/issue/27505). Go ends a thread when a
// goroutine locked to it returns without unlocking, which any library may do
// on whatever thread started the agent. So agents are started from one
// goroutine locked to its thread for the life of the app: that thread never
// exits before the process does.
var starter struct {
	once sync.Once
	jobs chan startJob
}

type startJob struct {
	cmd  *exec.Cmd
	done chan error
}

func startProcess(cmd *exec.Cmd) error {
	starter.once.Do(func() {
		starter.jobs = make(chan startJob)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread must live on
			for j := range starter.jobs {
				j.done <- j.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	starter.jobs <- startJob{cmd, done}
	return <-done
}

// pipeEmpty reports whether nothing waits to be read in the pipe f.
func pipeEmpty(f *os.File) bool {
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var n int32
	var ioctlErr syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		_, _, ioctlErr = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || ioctlErr != 0 {
		return false
	}
	return n == 0
}

// pipeEmptyKnown says pipeEmpty can tell; elsewhere draining falls back on
// a quiet spell.
const pipeEmptyKnown = true
