package sshtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

func TestServerRunsCommandsAsThisUser(t *testing.T) {
	s := Start(t, Options{Env: []string{"SSHTEST_MARK=yes"}})
	out, err := s.SSH(`echo "$HOME|$SSHTEST_MARK|$(id -u)"; $SHELL -l -c 'echo "$PATH"'`)
	if err != nil {
		t.Fatalf("ssh: %v\n%s\nsshd log:\n%s", err, out, s.Log())
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := s.Home + "|yes|" + strconv.Itoa(os.Getuid())
	if len(lines) != 2 || lines[0] != want {
		t.Fatalf("remote said %q, want %q first", out, want)
	}
	if !strings.HasPrefix(lines[1], s.Bin+":") {
		t.Fatalf("a login shell's PATH is %q, want %s first", lines[1], s.Bin)
	}
}

func TestStopEndsEverythingUnderIt(t *testing.T) {
	s := Start(t, Options{})
	done := make(chan error, 1)
	go func() { _, err := s.SSH("sleep 60"); done <- err }()
	var sleeper int
	testsupport.Eventually(t, fmt.Sprintf("the remote sleep under sshd %d", s.PID()), func() bool {
		for _, p := range Descendants(s.PID()) {
			if info, _ := ReadProc(p); info.Comm == "sleep" {
				sleeper = p
			}
		}
		return sleeper != 0
	})
	if len(s.Sessions()) == 0 {
		t.Fatal("no sshd session processes while a command runs")
	}
	s.Stop()
	if err := <-done; err == nil {
		t.Fatal("ssh succeeded although its server was stopped")
	}
	// Stop waits for sshd only; a killed process under it ends a moment
	// later, once the kernel has delivered the signal.
	testsupport.EventuallyGone(t, "the process under sshd, after Stop", func() string {
		if p, ok := ReadProc(sleeper); ok && p.Alive() {
			return fmt.Sprintf("%+v", p)
		}
		return ""
	})
}

// tbRecorder records a skip or a failure instead of ending the test.
type tbRecorder struct {
	testing.TB
	skipped, failed string
}

func (r *tbRecorder) Skip(args ...any)                  { r.skipped = fmt.Sprint(args...) }
func (r *tbRecorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }
func (r *tbRecorder) Helper()                           {}

func TestWithoutSSHD(t *testing.T) {
	old := Programs.SSHD
	Programs.SSHD = filepath.Join(t.TempDir(), "no-sshd")
	defer func() { Programs.SSHD = old }()

	t.Setenv("KNIGHTCODE_E2E", "")
	r := &tbRecorder{TB: t}
	if s := Start(r, Options{}); s != nil || !strings.Contains(r.skipped, "install openssh-server") || r.failed != "" {
		t.Fatalf("without sshd: server %v, skipped %q, failed %q", s, r.skipped, r.failed)
	}
	t.Setenv("KNIGHTCODE_E2E", "1")
	r = &tbRecorder{TB: t}
	if Start(r, Options{}); r.failed == "" || r.skipped != "" {
		t.Fatalf("without sshd under KNIGHTCODE_E2E=1: skipped %q, failed %q; want a failure", r.skipped, r.failed)
	}
	t.Logf("skip: %s; failure: %s", r.skipped, r.failed)
}
