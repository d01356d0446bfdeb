//go:build !windows

package rpcconn

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopProcess freezes pid with SIGSTOP and waits until every thread of it
// has really stopped: the signal is asynchronous, and a thread running on
// another core could otherwise still answer a request sent right after.
func stopProcess(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
	if len(tasks) == 0 {
		// No /proc here: give the signal a moment instead.
		time.Sleep(100 * time.Millisecond)
		return
	}
	// Generous: stopping takes the kernel a moment, a busy machine longer.
	deadline := time.Now().Add(time.Minute)
	for _, stat := range tasks {
		for {
			b, err := os.ReadFile(stat)
			if err != nil {
				break // the thread is gone
			}
			// The state follows the command name in parentheses.
			if i := strings.LastIndexByte(string(b), ')'); i >= 0 && len(b) > i+2 && (b[i+2] == 'T' || b[i+2] == 't') {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("process %d did not stop within a minute: %s", pid, b)
			}
			time.Sleep(time.Millisecond)
		}
	}
}
