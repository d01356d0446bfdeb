package wintest

import (
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRaceWindow runs the app built with -race under X through a streamed
// reply with thinking and a tool call, then closes it: any UI change made
// off the main goroutine (instead of through fyne.Do) shows as a DATA RACE
// report and exit status 66. The test driver cannot catch those: it runs
// fyne.Do at once on the calling goroutine.
//
// A cold -race build of the app takes about 5 minutes on 2 cores, so it
// runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or KNIGHTCODE_RACE_WINDOW=1,
// and never with -short. The build starts at once, beside the other
// window tests, and the test runs after them (t.Parallel).
func TestRaceWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: it builds the app with -race (minutes)")
	}
	if !e2e() && os.Getenv("KNIGHTCODE_RACE_WINDOW") != "1" {
		t.Skip("skipped: set KNIGHTCODE_RACE_WINDOW=1 (or KNIGHTCODE_E2E=1, as scripts/test.sh does) to build the app with -race (about 5 minutes cold) and run it")
	}
	requireWindow(t)
	type result struct {
		path string
		took time.Duration
		err  error
	}
	built := make(chan result, 1)
	go func() {
		p, took, err := buildBinary("knightcode-desktop-race", ".", true, "-race", "-tags", "migrated_fynedo")
		built <- result{p, took, err}
	}()
	fakeBinary(t)
	t.Parallel()

	wait := 30 * time.Minute
	if deadline, ok := t.Deadline(); ok {
		wait = time.Until(deadline) - 3*time.Minute
	}
	var r result
	select {
	case r = <-built:
	case <-time.After(wait):
		t.Fatalf("the -race build of the app did not finish within %v: give go test a longer -timeout", wait.Round(time.Second))
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Logf("-race build of the app took %v", r.took.Round(time.Second))

	s := startApp(t, r.path, "--fake-delay=2ms")
	agent := s.agent()
	s.send("[[think]] [[tool:bash:seq 50]] [[long:300]]")
	s.waitRunEnd(3 * time.Minute)
	s.screen("after-run")

	if err := s.p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, err := s.p.Wait(2 * time.Minute)
	stderr := s.p.StderrText()
	if n := strings.Count(stderr, "WARNING: DATA RACE"); n > 0 {
		t.Errorf("the race detector found %d data race(s):\n%s", n, raceReports(stderr))
	}
	switch {
	case err != nil:
		t.Fatalf("after SIGTERM: %v; stderr:\n%s", err, stderr)
	case code == 66:
		t.Fatalf("exit status 66: the race detector found races")
	case code != 0:
		t.Fatalf("the app exited %d, want 0; stderr:\n%s", code, stderr)
	}
	if !WaitFor(2*time.Minute, 20*time.Millisecond, func() bool { return !Running(agent) }) {
		t.Fatalf("the agent (pid %d: %s) still runs 2 minutes after the app exited", agent, CommandLine(agent))
	}
}

var raceReport = regexp.MustCompile(`(?s)==================\nWARNING: DATA RACE.*?==================\n`)

// raceReports keeps the race reports of stderr, or all of it when none
// parses.
func raceReports(stderr string) string {
	if r := raceReport.FindAllString(stderr, -1); len(r) > 0 {
		return strings.Join(r, "")
	}
	return stderr
}
