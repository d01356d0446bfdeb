package model

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// newTestController prepares a controller on the fake agent without
// starting it; opts adjusts its options first.
func newTestController(t *testing.T, opts func(*rpcconn.Options), args ...string) (*Controller, *Session, *recordingUI) {
	t.Helper()
	path, env := rpctest.Command()
	s := NewSession()
	ui := &recordingUI{}
	o := rpcconn.Options{Path: path, Env: env, Args: args, Dir: t.TempDir()}
	if opts != nil {
		opts(&o)
	}
	c := NewController(s, ui, o)
	t.Cleanup(c.Shutdown)
	return c, s, ui
}

// TestControllerHoldsPromptsWhileStarting: what is sent while the agent
// starts waits in the queue strip, in order, and goes out once it is
// ready: the first as a prompt, the rest as follow-ups; a !command too.
func TestControllerHoldsPromptsWhileStarting(t *testing.T) {
	log := filepath.Join(t.TempDir(), "stdin.log")
	c, s, ui := newTestController(t, nil, "--fake-startup-delay=1s", "--fake-log="+log)
	c.Start()
	testsupport.Eventually(t, "starting", func() bool { return s.View(nil).Conn == ConnStarting })
	accepted := make(chan string, 2)
	c.Send("first [[slow:20]] [[long:10]]", nil, false, func() { accepted <- "first" })
	c.Send("second", nil, false, func() { accepted <- "second" })
	c.RunBash("echo held")
	v := s.View(nil)
	if strings.Join(v.Waiting, "|") != "first [[slow:20]] [[long:10]]|second|!echo held" || v.QueueNote != NoteWaitingStart {
		t.Fatalf("while starting: waiting %q, note %q", v.Waiting, v.QueueNote)
	}
	if len(ui.snapshot().drafts) != 0 {
		t.Fatal("a held prompt was handed back")
	}
	testsupport.Eventually(t, "both prompts answered and the command run", func() bool {
		v := s.View(nil)
		bashDone := false
		for _, it := range v.Items {
			bashDone = bashDone || it.Kind == ChatBash && !it.Streaming && strings.Contains(it.Text, "held")
		}
		return !v.Running && len(v.Waiting) == 0 && bashDone && strings.Join(UserPrompts(s.View(nil).Items), "|") == "first [[slow:20]] [[long:10]]|second"
	})
	if a, b := <-accepted, <-accepted; a != "first" || b != "second" {
		t.Fatalf("accepted %s then %s", a, b)
	}
	var behaviours []string
	for _, line := range strings.Split(readFile(t, log), "\n") {
		if strings.Contains(line, `"type":"prompt"`) {
			behaviours = append(behaviours, map[bool]string{true: "followUp", false: "prompt"}[strings.Contains(line, `"streamingBehavior":"followUp"`)])
		}
	}
	if strings.Join(behaviours, " ") != "prompt followUp" {
		t.Fatalf("sent as %v", behaviours)
	}
	// Once ready, sends go straight out again.
	c.Send("third", nil, false, nil)
	if v := s.View(nil); len(v.Waiting) != 0 {
		t.Fatalf("held after the start: %q", v.Waiting)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestControllerNotAnsweringKeepsTypedText: an agent that does not answer
// its first command is reported as not answering (status and banner with
// its stderr tail); the text typed meanwhile stays, Esc takes it back, and
// after Restart it goes to the agent that answers.
func TestControllerNotAnsweringKeepsTypedText(t *testing.T) {
	c, s, ui := newTestController(t, func(o *rpcconn.Options) { o.SlowStart = 300 * time.Millisecond },
		"--fake-startup-delay=1h", "--fake-stderr-lines=2")
	c.Start()
	c.Send("are you there?", nil, false, nil)
	testsupport.Eventually(t, "not answering", func() bool { return s.View(nil).Banner != nil })
	v := s.View(nil)
	if b := v.Banner; b.Level != NoticeWarning || !strings.Contains(b.Title, "is not answering") || !strings.Contains(b.Detail, "diagnostic line 2 of 2") {
		t.Fatalf("banner %+v", b)
	}
	if v.Status.Connection != "Agent not answering" || strings.Join(v.Waiting, "|") != "are you there?" {
		t.Fatalf("status %q, waiting %q", v.Status.Connection, v.Waiting)
	}
	// Esc gives the text back; sent again, it waits again.
	c.Escape()
	if d := ui.snapshot().drafts; len(d) != 1 || d[0] != "are you there?" || len(s.View(nil).Waiting) != 0 {
		t.Fatalf("Esc: drafts %q, waiting %q", d, s.View(nil).Waiting)
	}
	c.Send("are you there?", nil, false, nil)

	// Restart ends the stuck start; the new agent answers and gets the text.
	c.opts.Args = nil
	c.Restart()
	testsupport.Eventually(t, "the restarted agent answered the held prompt", func() bool {
		v := s.View(nil)
		return v.Conn == ConnReady && v.Banner == nil && len(v.Waiting) == 0 && !v.Running &&
			strings.Join(UserPrompts(s.View(nil).Items), "|") == "are you there?" && lastItem(s).Kind == ChatAssistant
	})
}

// TestControllerStartFailureReturnsHeldText: when the start fails, what
// waited for it goes back into the editor with the reason.
func TestControllerStartFailureReturnsHeldText(t *testing.T) {
	c, s, ui := newTestController(t, func(o *rpcconn.Options) { o.StartTimeout = 500 * time.Millisecond },
		"--fake-startup-delay=1h")
	c.Start()
	c.Send("precious words", nil, false, nil)
	c.RunBash("ls")
	testsupport.Eventually(t, "failed", func() bool { return s.View(nil).Conn == ConnFailed })
	testsupport.Eventually(t, "text back", func() bool { return len(ui.snapshot().drafts) == 1 })
	if d := ui.snapshot().drafts[0]; d != "precious words\n\n!ls" {
		t.Fatalf("draft %q", d)
	}
	v := s.View(nil)
	if len(v.Waiting) != 0 || !strings.Contains(lastItem(s).Text, "could not be started") {
		t.Fatalf("waiting %q, last %+v", v.Waiting, lastItem(s))
	}
	if b := v.Banner; b == nil || !strings.Contains(b.Title, "could not be started") || !strings.Contains(b.Detail, "did not answer") {
		t.Fatalf("banner %+v", b)
	}
	// Now the agent is not starting: a send is handed back at once.
	c.Send("again", nil, false, nil)
	if d := ui.snapshot().drafts; len(d) != 2 || d[1] != "again" {
		t.Fatalf("drafts %q", d)
	}
}

// TestControllerRestartIgnoresTheOldAgent: an old agent that takes seconds
// to die after Restart must not mark the new one exited, nor close its
// dialogs, nor lend it its capabilities.
func TestControllerRestartIgnoresTheOldAgent(t *testing.T) {
	c, s, ui := newTestController(t, nil, "--fake-older", "--fake-ignore-stdin-close")
	c.Start()
	testsupport.Eventually(t, "old agent ready", func() bool { return s.View(nil).Conn == ConnReady && len(s.View(nil).Levels) > 0 })
	testsupport.Eventually(t, "old agent probed", func() bool { return c.current().Capabilities().Probed })
	old := c.current()

	c.opts.Args = nil // the new agent is a well-behaved 0.9.2 one
	c.Restart()
	testsupport.Eventually(t, "new agent ready", func() bool {
		cur := c.current()
		return cur != nil && cur != old && s.View(nil).Conn == ConnReady
	})
	c.Send("[[ext:confirm]]", nil, false, nil)
	testsupport.Eventually(t, "the new agent's dialog", func() bool { return len(ui.snapshot().dialogs) == 1 })
	closedBefore := ui.snapshot().closed

	// The old agent ignores its closed stdin: it dies only at SIGTERM, 3 s on.
	select {
	case <-old.Done():
	case <-time.After(testsupport.GoneWait):
		t.Fatalf("the old agent did not end within %v", testsupport.GoneWait)
	}
	time.Sleep(300 * time.Millisecond) // its event loop reads the exit
	v := s.View(nil)
	if v.Conn != ConnReady || v.Exit != nil || v.Banner != nil {
		t.Fatalf("the old agent's exit reached the new one: conn %v exit %+v banner %+v", v.Conn, v.Exit, v.Banner)
	}
	if ui.snapshot().closed != closedBefore {
		t.Fatal("the old agent's exit closed the new agent's dialog")
	}
	s.mu.Lock()
	settled := s.agentSendsSettled
	s.mu.Unlock()
	if !settled {
		t.Fatal("the old agent's capabilities were applied to the new one")
	}
	c.Respond(ui.snapshot().dialogs[0].ID, AnswerConfirmed(true))
	testsupport.Eventually(t, "the new agent got the answer", func() bool {
		it := lastItem(s)
		return !s.Running() && it.Kind == ChatAssistant && len(it.Blocks) > 0 && strings.Contains(it.Blocks[len(it.Blocks)-1].Text, "answered")
	})
}

// TestControllerAgentEndingTheSession: exit code 0 without being asked is
// the agent ending the session (an extension asked it to), not a crash.
func TestControllerAgentEndingTheSession(t *testing.T) {
	c, s, _ := newTestController(t, nil)
	c.Start()
	testsupport.Eventually(t, "ready", func() bool { return s.View(nil).Conn == ConnReady })
	c.Send("goodbye [[shutdown]]", nil, false, nil)
	testsupport.Eventually(t, "ended", func() bool { return s.View(nil).Conn == ConnExited })
	v := s.View(nil)
	if b := v.Banner; b == nil || b.Level != NoticeInfo || !strings.Contains(b.Title, "ended the session") {
		t.Fatalf("banner %+v", b)
	}
	if v.Status.Connection != "Session ended" {
		t.Fatalf("status %q", v.Status.Connection)
	}
	if it := lastItem(s); it.Kind != ChatAssistant || it.StopReason != "" {
		t.Fatalf("the finished reply is marked: %+v", it)
	}
}

// TestControllerExitStatusesExplained: a crash is reported once, by the
// banner, which names the agent and says what the status means.
func TestControllerExitStatusesExplained(t *testing.T) {
	// A binary called knightcode is named so.
	exe, _ := rpctest.Command()
	link := filepath.Join(t.TempDir(), "knightcode")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	c, s, _ := newTestController(t, func(o *rpcconn.Options) { o.Path = link }, "--fake-stderr-lines=1")
	c.Start()
	testsupport.Eventually(t, "ready", func() bool { return s.View(nil).Conn == ConnReady })
	for _, tc := range []struct {
		name  string
		crash func()
		want  string
	}{
		{"exit 137 from a wrapper", func() { c.Send("[[slow:20]] [[long:20]] [[crash:137]]", nil, false, nil) }, "KnightCode was killed (SIGKILL, exit code 137)"},
		{"exit 143", func() { c.Send("[[slow:20]] [[long:20]] [[crash:143]]", nil, false, nil) }, "KnightCode was terminated (SIGTERM, exit code 143)"},
		{"SIGKILL", func() { syscall.Kill(c.current().PID(), syscall.SIGKILL) }, "KnightCode was killed (SIGKILL):"},
		{"SIGTERM", func() { syscall.Kill(c.current().PID(), syscall.SIGTERM) }, "KnightCode was terminated (SIGTERM) by"},
	} {
		tc.crash()
		testsupport.Eventually(t, tc.name, func() bool { return s.View(nil).Conn == ConnExited })
		v := s.View(nil)
		if b := v.Banner; b == nil || b.Level != NoticeError || !strings.Contains(b.Title, tc.want) || !strings.Contains(b.Detail, "diagnostic line 1") {
			t.Fatalf("%s: banner %+v", tc.name, b)
		}
		for _, it := range v.Items {
			if it.Kind == ChatNotice && strings.Contains(it.Text, "exit") {
				t.Fatalf("%s: reported again in the transcript: %q", tc.name, it.Text)
			}
		}
		c.Restart()
		testsupport.Eventually(t, "restarted", func() bool { return s.View(nil).Conn == ConnReady && c.current() != nil })
	}
}
