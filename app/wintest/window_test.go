package wintest

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// The window tests drive the real app under X (scripts/test.sh starts
// Xvfb) against the fake agent: xdotool types and clicks, the fake's
// --fake-log shows what the app sent, tesseract reads the screenshots,
// which are kept (see artifacts).

// TestPromptReplyAndSIGTERM: the editor has the focus at start and again
// after sending, the agent gets exactly what was typed, the reply shows,
// and SIGTERM closes the app cleanly with its agent.
func TestPromptReplyAndSIGTERM(t *testing.T) {
	requireWindow(t)
	s := startApp(t, appBinary(t))
	agent := s.agent()
	t.Logf("app pid %d, agent pid %d, window %s", s.p.Pid, agent, s.window)

	// No click anywhere: typing reaches the editor only if it has the focus.
	const prompt = "Please describe the zebra crossing"
	s.send(prompt)
	s.waitRunEnd(2 * time.Minute)
	// The fake's plain reply: "Hello from the fake agent. You said: …
	// This reply is scripted: …"; "scripted" is in the reply only.
	s.waitWord("reply", "scripted", time.Minute)

	// The focus is back in the editor after sending.
	const second = "And a second prompt, typed without clicking"
	s.send(second)
	s.waitRunEnd(2 * time.Minute)

	s.quit(syscall.SIGTERM)
}

// TestSIGINTWhileStreaming: Ctrl+C in the terminal (SIGINT) in the middle
// of a reply closes the app cleanly and stops the agent.
func TestSIGINTWhileStreaming(t *testing.T) {
	requireWindow(t)
	s := startApp(t, appBinary(t))
	// About ten seconds of streaming.
	s.send("[[long:2000]] [[slow:5]]")
	from := time.Now()
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool {
		return s.p.Marks().Count("draw", from, time.Now().Add(time.Hour)) >= 3
	}) {
		t.Fatal("the reply did not start to show (no draws after the prompt)")
	}
	s.screen("streaming")
	s.quit(os.Interrupt)
}

// TestAgentCrashAndRestart: an agent that dies mid-reply leaves a banner
// saying so; a draft typed then survives clicking Restart, which starts a
// new agent.
func TestAgentCrashAndRestart(t *testing.T) {
	requireWindow(t)
	s := startApp(t, appBinary(t))
	first := s.agent()
	starts := len(s.records("get_state"))

	s.send("[[crash]] [[long:20]]")
	if !WaitFor(2*time.Minute, 20*time.Millisecond, func() bool { return !Running(first) }) {
		t.Fatalf("the fake agent (pid %d: %s) still runs 2 minutes after its crash was asked for", first, CommandLine(first))
	}
	s.waitWord("exited", "exited", time.Minute)

	const draft = "draft about giraffes"
	s.typeText(draft)
	typed := time.Now()
	restart := s.waitWord("banner", "Restart", time.Minute)
	x, y := restart.Center()
	g, err := s.p.WindowGeometry(s.window)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.p.Click(s.window, x-g.X, y-g.Y); err != nil {
		t.Fatal(err)
	}

	var second int
	if !WaitFor(time.Minute, 50*time.Millisecond, func() bool {
		for _, k := range Children(s.p.Pid) {
			if k != first {
				second = k
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no new agent process after clicking Restart at %d,%d", x, y)
	}
	if !WaitFor(time.Minute, 50*time.Millisecond, func() bool { return len(s.records("get_state")) > starts }) {
		t.Fatalf("the new agent (pid %d) was never asked for its state; it got:\n%s", second, s.fakeLogText())
	}
	s.waitDrawn(5 * time.Second)
	t.Logf("agent pid %d crashed, restarted as pid %d", first, second)
	if m, ok := s.p.Marks().First("editor", typed, func(m Mark) bool { return m.N() < len(draft) }); ok {
		t.Errorf("the editor lost the draft after the restart (editor mark %q at %v)", m.Arg, m.T)
	}
	// "giraffes" is in the draft only, not in the transcript.
	s.waitWord("after-restart", "giraffes", time.Minute)
	if !Running(second) {
		t.Fatalf("the new agent (pid %d) is not running", second)
	}
	s.quit(syscall.SIGTERM)
}
