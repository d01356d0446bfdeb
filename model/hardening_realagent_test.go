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
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// The cases of issue 10 that the public agent pi shows for itself: Esc with
// a queue (0.73.1 has no clear_queue, 1.6.0 has), a slow start, ending the
// session, signals, cut-off replies and !commands.

func needRealAgent(t *testing.T) {
	t.Helper()
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv("KNIGHTCODE_PI") == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh)")
	}
}

// startPi connects a controller to pi talking to a fresh model server. ui
// may be nil for a recordingUI.
func startPi(t *testing.T, ui UI, opts ...pienv.Option) (*Controller, *Session, *llmserver.Server, *pienv.Env) {
	t.Helper()
	needRealAgent(t)
	srv := llmserver.Start(t)
	env := pienv.Setup(t, srv.URL(), opts...)
	if ui == nil {
		ui = &recordingUI{}
	}
	s := NewSession()
	c := NewController(s, ui, rpcconn.Options{Path: env.Binary, Args: env.Args, Env: env.Env, ExactEnv: true, Dir: env.WorkDir})
	c.Start()
	t.Cleanup(c.Shutdown)
	return c, s, srv, env
}

func waitPiReady(t *testing.T, s *Session) {
	t.Helper()
	testsupport.Eventually(t, "pi connected", func() bool { return s.View(nil).Conn == ConnReady && len(s.Models()) > 0 })
}

func idleAfterReply(s *Session) bool {
	v := s.View(nil)
	return !v.Running && len(v.Items) > 0 && v.Items[len(v.Items)-1].Kind == ChatAssistant && !v.Items[len(v.Items)-1].Streaming
}

// TestRealAgentCutOffReply: pi reports a reply that hit the output limit as
// stopReason "length"; the reply keeps it.
func TestRealAgentCutOffReply(t *testing.T) {
	c, s, _, _ := startPi(t, nil)
	waitPiReady(t, s)
	c.Send("write a novel [[long:30]] [[length]]", nil, false, nil)
	testsupport.Eventually(t, "reply", func() bool { return idleAfterReply(s) })
	if it := lastItem(s); it.StopReason != rpcconn.StopReasonLength {
		t.Fatalf("pi's cut-off reply has stop reason %q: %+v", it.StopReason, it)
	}
}

// TestRealAgentEscapeWithQueuedMessages: Esc stops a run with a steer and
// a follow-up queued. pi 0.73.1 answers clear_queue with an id-less
// "Unknown command": the window settles, says the queued messages stay
// with pi, and they reach the model with the next prompt. pi 1.6.0 has
// clear_queue: the texts come back to the editor, and the next prompt goes
// out alone.
func TestRealAgentEscapeWithQueuedMessages(t *testing.T) {
	ui := &recordingUI{}
	c, s, srv, _ := startPi(t, ui)
	waitPiReady(t, s)
	c.Send("take your time [[slow:200]] [[long:200]]", nil, false, nil)
	testsupport.Eventually(t, "streaming", func() bool { it := lastItem(s); return s.Running() && it.Streaming && len(it.Blocks) > 0 })
	c.Send("steer me", nil, false, nil)
	c.Send("follow me", nil, true, nil)
	testsupport.Eventually(t, "both queued", func() bool {
		v := s.View(nil)
		return len(v.Steering) == 1 && len(v.FollowUp) == 1
	})
	c.Escape()
	testsupport.Eventually(t, "settled after the abort", func() bool { return !s.Running() })
	current := pienv.Selected().IsCurrent()
	if current {
		testsupport.Eventually(t, "the queued texts back in the editor", func() bool {
			d := strings.Join(ui.snapshot().drafts, "\n")
			return strings.Contains(d, "steer me") && strings.Contains(d, "follow me")
		})
		if v := s.View(nil); len(v.Steering)+len(v.FollowUp) != 0 || v.QueueNote != "" {
			t.Fatalf("after Esc on %s: queue %q %q note %q", pienv.Selected(), v.Steering, v.FollowUp, v.QueueNote)
		}
	} else {
		testsupport.Eventually(t, "told the messages stay", func() bool { return strings.Contains(lastItem(s).Text, "2 queued messages stay with pi") })
		if v := s.View(nil); len(v.Steering)+len(v.FollowUp) != 2 || v.QueueNote != NoteQueueStays {
			t.Fatalf("queue %q %q note %q", v.Steering, v.FollowUp, v.QueueNote)
		}
	}
	before := len(srv.Requests())
	c.Send("next", nil, false, nil)
	testsupport.Eventually(t, "the next prompt answered", func() bool {
		v := s.View(nil)
		return !v.Running && len(v.Steering)+len(v.FollowUp) == 0 && idleAfterReply(s)
	})
	var sentAfter []string
	for _, r := range srv.Requests()[before:] {
		sentAfter = append(sentAfter, r.LastUserText())
	}
	all := strings.Join(sentAfter, "|")
	queuedWent := strings.Contains(all, "steer me") && strings.Contains(all, "follow me")
	if queuedWent == current {
		t.Fatalf("%s: the model got %q after Esc", pienv.Selected(), sentAfter)
	}
}

// TestRealAgentHoldsPromptWhileStarting: pi takes about two seconds to
// answer get_state. A prompt sent meanwhile waits, then goes out.
func TestRealAgentHoldsPromptWhileStarting(t *testing.T) {
	c, s, srv, _ := startPi(t, nil)
	if s.View(nil).Conn == ConnReady {
		t.Skip("pi was ready before the test could type")
	}
	c.Send("typed while pi starts", nil, false, nil)
	if v := s.View(nil); v.Conn == ConnStarting && (len(v.Waiting) != 1 || v.QueueNote != NoteWaitingStart) {
		t.Fatalf("while starting: waiting %q note %q", v.Waiting, v.QueueNote)
	}
	testsupport.Eventually(t, "the held prompt answered", func() bool { return idleAfterReply(s) && len(s.View(nil).Waiting) == 0 })
	if got := strings.Join(UserPrompts(s.View(nil).Items), "|"); got != "typed while pi starts" {
		t.Fatalf("transcript has %q", got)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].LastUserText() != "typed while pi starts" {
		t.Fatalf("the model got %d requests", len(reqs))
	}
	for _, it := range s.View(nil).Items {
		if it.Kind == ChatNotice {
			t.Fatalf("notice %q", it.Text)
		}
	}
}

// byeExtension registers /bye, which asks pi to shut down: pi then ends
// the session by itself with exit code 0.
const byeExtension = `import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
export default function (pi: ExtensionAPI) {
	pi.registerCommand("bye", {
		description: "End the session (ctx.shutdown)",
		handler: async (_args, ctx) => { ctx.shutdown(); },
	});
}
`

// TestRealAgentEndingAndSignals: pi ending the session for an extension is
// neutral news; SIGTERM (pi exits 143) and SIGKILL are explained, once, in
// a banner naming pi.
func TestRealAgentEndingAndSignals(t *testing.T) {
	needRealAgent(t)
	ext := filepath.Join(t.TempDir(), "bye.ts")
	if err := os.WriteFile(ext, []byte(byeExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	c, s, _, _ := startPi(t, nil, pienv.WithExtension(ext))
	waitPiReady(t, s)
	c.Send("/bye", nil, false, nil)
	testsupport.Eventually(t, "pi ended the session", func() bool { return s.View(nil).Conn == ConnExited })
	v := s.View(nil)
	if b := v.Banner; b == nil || b.Level != NoticeInfo || b.Title != "pi ended the session by itself" {
		t.Fatalf("banner after /bye: %+v (exit %+v)", b, v.Exit)
	}
	if v.Status.Connection != "Session ended" || !v.Status.Ended {
		t.Fatalf("status %+v", v.Status)
	}

	for _, tc := range []struct {
		sig  syscall.Signal
		want string
	}{
		// pi catches SIGTERM and exits 143 itself.
		{syscall.SIGTERM, "pi was terminated (SIGTERM, exit code 143)"},
		{syscall.SIGKILL, "pi was killed (SIGKILL)"},
	} {
		c.Restart()
		waitPiReady(t, s)
		testsupport.Eventually(t, "pi loaded", func() bool { return c.current() != nil && len(s.View(nil).Levels) > 0 })
		if err := syscall.Kill(c.current().PID(), tc.sig); err != nil {
			t.Fatal(err)
		}
		testsupport.Eventually(t, "exited", func() bool { return s.View(nil).Conn == ConnExited })
		v := s.View(nil)
		if b := v.Banner; b == nil || b.Level != NoticeError || !strings.HasPrefix(b.Title, tc.want) {
			t.Fatalf("%v: banner %+v (exit %+v)", tc.sig, b, v.Exit)
		}
		for _, it := range v.Items {
			if it.Kind == ChatNotice && strings.Contains(it.Text, "exit") {
				t.Fatalf("%v: reported in the transcript too: %q", tc.sig, it.Text)
			}
		}
	}
}

// TestRealAgentStopsACommand: pi runs !commands with a real shell and does
// not stream their output; abort_bash stops one, which then says it was
// cancelled and how long it ran.
func TestRealAgentStopsACommand(t *testing.T) {
	c, s, _, _ := startPi(t, nil)
	waitPiReady(t, s)
	c.RunBash("sleep 30; echo too-late")
	testsupport.Eventually(t, "running", func() bool { return s.View(nil).BashRunning })
	time.Sleep(300 * time.Millisecond)
	c.AbortBash()
	testsupport.Eventually(t, "stopped", func() bool { return !s.View(nil).BashRunning })
	// Cancelled and no "too-late" say the abort ended it, not the end of
	// its 30 s sleep; no clock needed.
	it := lastItem(s)
	if it.Kind != ChatBash || !it.Cancelled || strings.Contains(it.Text, "too-late") || it.Ended.Sub(it.Started) < 300*time.Millisecond {
		t.Fatalf("stopped command %+v", it)
	}
	for _, it := range s.View(nil).Items {
		if it.Kind == ChatNotice {
			t.Fatalf("notice %q", it.Text)
		}
	}
}
