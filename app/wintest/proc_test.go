package wintest

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// A zombie has no memory figures: an error, not an RSS of zero.
func TestReadMemory(t *testing.T) {
	if m, err := ReadMemory(os.Getpid()); err != nil || m.RSS <= 0 || m.Peak < m.RSS {
		t.Fatalf("this process: %+v, %v", m, err)
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer cmd.Wait()
	zombie := WaitFor(time.Minute, 5*time.Millisecond, func() bool {
		st, _, _, ok := procState(cmd.Process.Pid)
		return ok && st == "Z"
	})
	if !zombie {
		t.Fatal("the child did not become a zombie within a minute")
	}
	if m, err := ReadMemory(cmd.Process.Pid); err == nil {
		t.Errorf("a zombie: %+v, no error", m)
	}
}
