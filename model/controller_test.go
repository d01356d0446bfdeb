package model

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

func TestMain(m *testing.M) {
	rpctest.RunIfChild()
	os.Exit(m.Run())
}

// recordingUI is the window as the controller sees it, recording calls.
type recordingUI struct {
	mu       sync.Mutex
	dialogs  []Dialog
	drafts   []string
	editor   []string
	failures []error
	notices  []Notice
	closed   int
	// given are the GiveBack calls, each its texts.
	given [][]string
}

func (u *recordingUI) Invalidate() {}
func (u *recordingUI) ConnectFailed(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.failures = append(u.failures, err)
}
func (u *recordingUI) ShowDialog(r Dialog) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.dialogs = append(u.dialogs, r)
}
func (u *recordingUI) CloseDialogs() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed++
}
func (u *recordingUI) SetEditorText(text string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.editor = append(u.editor, text)
}
func (u *recordingUI) Notify(n Notice) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.notices = append(u.notices, n)
}
func (u *recordingUI) Settled(bool) {}
func (u *recordingUI) Do(f func())  { f() }
func (u *recordingUI) RestoreDraft(text string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.drafts = append(u.drafts, text)
}

func (u *recordingUI) GiveBack(texts []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.given = append(u.given, append([]string(nil), texts...))
}

func (u *recordingUI) snapshot() recordingUI {
	u.mu.Lock()
	defer u.mu.Unlock()
	return recordingUI{dialogs: append([]Dialog(nil), u.dialogs...), drafts: append([]string(nil), u.drafts...),
		editor: append([]string(nil), u.editor...), failures: append([]error(nil), u.failures...), closed: u.closed,
		given: append([][]string(nil), u.given...)}
}

func startController(t *testing.T, args ...string) (*Controller, *Session, *recordingUI) {
	t.Helper()
	path, env := rpctest.Command()
	s := NewSession()
	ui := &recordingUI{}
	c := NewController(s, ui, rpcconn.Options{Path: path, Env: env, Args: args, Dir: t.TempDir()})
	c.Start()
	t.Cleanup(c.Shutdown)
	testsupport.Eventually(t, "connected with models", func() bool {
		v := s.View(nil)
		return v.Conn == ConnReady && len(v.Models) > 0 && len(v.Levels) > 0
	})
	return c, s, ui
}

func lastItem(s *Session) ChatItem {
	v := s.View(nil)
	if len(v.Items) == 0 {
		return ChatItem{}
	}
	return v.Items[len(v.Items)-1]
}

func TestControllerChatsAndSwitchesModels(t *testing.T) {
	c, s, _ := startController(t)
	c.Send("hello [[markdown]]", nil, false, nil)
	testsupport.Eventually(t, "reply settled", func() bool {
		v := s.View(nil)
		return len(v.Items) >= 2 && !v.Running && v.Items[len(v.Items)-1].Kind == ChatAssistant && !v.Items[len(v.Items)-1].Streaming
	})
	testsupport.Eventually(t, "stats after the run", func() bool { return s.View(nil).Status.TokensIn > 0 })

	var thinker rpcconn.Model
	for _, m := range s.Models() {
		if m.Reasoning {
			thinker = m
		}
	}
	c.SelectModel(thinker.Provider, thinker.ID)
	testsupport.Eventually(t, "thinking levels of the reasoning model", func() bool {
		v := s.View(nil)
		return v.ModelID == thinker.ID && len(v.Levels) == 7
	})
	c.SelectThinking("high")
	testsupport.Eventually(t, "thinking high", func() bool { return s.Thinking() == "high" })
	c.CycleThinking()
	testsupport.Eventually(t, "thinking cycled", func() bool { return s.Thinking() == "xhigh" })
	c.CycleModel()
	testsupport.Eventually(t, "model cycled", func() bool { return s.View(nil).ModelID != thinker.ID })
	c.NewSession()
	testsupport.Eventually(t, "empty transcript", func() bool { return len(s.View(nil).Items) == 0 })
}

func TestControllerEscapeRestoresQueuedTexts(t *testing.T) {
	c, s, ui := startController(t)
	c.Send("[[slow:100]] [[long:50]]", nil, false, nil)
	testsupport.Eventually(t, "running", s.Running)
	c.Send("steer me", nil, false, nil)
	c.Send("follow me", nil, true, nil)
	testsupport.Eventually(t, "queued", func() bool {
		v := s.View(nil)
		return len(v.Steering) == 1 && len(v.FollowUp) == 1
	})
	c.Escape()
	testsupport.Eventually(t, "stopped", func() bool { return !s.Running() })
	got := ui.snapshot().drafts
	if len(got) != 1 || got[0] != "steer me\n\nfollow me" {
		t.Fatalf("restored drafts %q", got)
	}
	aborted := false
	for _, it := range s.View(nil).Items {
		aborted = aborted || it.Kind == ChatAssistant && it.StopReason == "aborted"
	}
	if !aborted {
		t.Fatal("no aborted reply in the transcript")
	}
	if v := s.View(nil); len(v.Steering)+len(v.FollowUp) != 0 || v.QueueNote != "" {
		t.Fatalf("queue after Esc %q %q, note %q", v.Steering, v.FollowUp, v.QueueNote)
	}
	// Taken back, they are never sent.
	c.Send("next", nil, false, nil)
	testsupport.Eventually(t, "next reply", func() bool {
		return !s.Running() && lastItem(s).Kind == ChatAssistant && len(UserPrompts(s.View(nil).Items)) == 2
	})
	time.Sleep(100 * time.Millisecond)
	if got := strings.Join(UserPrompts(s.View(nil).Items), "|"); got != "[[slow:100]] [[long:50]]|next" {
		t.Fatalf("sent %q", got)
	}
}

func TestControllerKeepsDraftWhenSendFails(t *testing.T) {
	c, s, ui := startController(t)
	c.Send("[[slow:100]] [[long:20]]", nil, false, nil)
	testsupport.Eventually(t, "running", s.Running)
	// Once the agent is gone, sending must hand the text back.
	c.current().Close()
	testsupport.Eventually(t, "exited", func() bool { return s.View(nil).Conn == ConnExited })
	c.Send("precious draft", nil, false, nil)
	if d := ui.snapshot().drafts; len(d) != 1 || d[0] != "precious draft" {
		t.Fatalf("drafts %q", d)
	}
}

func TestControllerRestartResumesSession(t *testing.T) {
	dir := t.TempDir()
	c, s, ui := startController(t, "--session-dir", dir)
	c.Send("remember me", nil, false, nil)
	testsupport.Eventually(t, "reply", func() bool { v := s.View(nil); return len(v.Items) >= 2 && !v.Running })
	file := s.SessionFile()
	if file == "" {
		t.Fatal("the fake agent kept no session file")
	}
	c.Send("[[crash]] [[long:20]]", nil, false, nil)
	testsupport.Eventually(t, "crashed", func() bool { return s.View(nil).Conn == ConnExited })
	testsupport.Eventually(t, "dialogs closed on exit", func() bool { return ui.snapshot().closed > 0 })
	c.Restart()
	testsupport.Eventually(t, "resumed", func() bool {
		v := s.View(nil)
		return v.Conn == ConnReady && len(v.Items) > 0 && v.Items[0].Text == "remember me"
	})
	if got := s.SessionFile(); got != file {
		t.Fatalf("resumed %q, want %q", got, file)
	}
}

func TestControllerReportsStartFailure(t *testing.T) {
	s := NewSession()
	ui := &recordingUI{}
	c := NewController(s, ui, rpcconn.Options{Path: filepath.Join(t.TempDir(), "missing-agent")})
	c.Start()
	t.Cleanup(c.Shutdown)
	testsupport.Eventually(t, "failure", func() bool { return len(ui.snapshot().failures) == 1 })
	if err := ui.snapshot().failures[0]; !strings.Contains(err.Error(), "agent not found") {
		t.Fatalf("failure %v", err)
	}
	if v := s.View(nil); v.Conn != ConnFailed {
		t.Fatalf("conn %v", v.Conn)
	}
}

func TestControllerForwardsDialogs(t *testing.T) {
	c, s, ui := startController(t)
	c.Send("[[ext:confirm]]", nil, false, nil)
	testsupport.Eventually(t, "dialog", func() bool { return len(ui.snapshot().dialogs) == 1 })
	d := ui.snapshot().dialogs[0]
	c.Respond(d.ID, AnswerConfirmed(true))
	testsupport.Eventually(t, "answered", func() bool {
		it := lastItem(s)
		return it.Kind == ChatAssistant && !it.Streaming && len(it.Blocks) > 0 && strings.Contains(it.Blocks[len(it.Blocks)-1].Text, "answered")
	})
}

func TestControllerRestartKeepsTranscriptWithoutSessionFile(t *testing.T) {
	c, s, _ := startController(t)
	c.Send("keep me on screen", nil, false, nil)
	testsupport.Eventually(t, "reply", func() bool { v := s.View(nil); return len(v.Items) >= 2 && !v.Running })
	c.Send("[[crash]] [[long:20]]", nil, false, nil)
	testsupport.Eventually(t, "crashed", func() bool { return s.View(nil).Conn == ConnExited })
	c.Restart()
	testsupport.Eventually(t, "restarted", func() bool {
		return s.View(nil).Conn == ConnReady && strings.Contains(lastItem(s).Text, "no longer remembers")
	})
	if v := s.View(nil); v.Items[0].Text != "keep me on screen" {
		t.Fatalf("transcript replaced: %+v", v.Items[0])
	}
}

func TestControllerKeepsCutOffReply(t *testing.T) {
	c, s, _ := startController(t, "--session-dir", t.TempDir())
	c.Send("tell me everything [[length]]", nil, false, nil)
	testsupport.Eventually(t, "reply settled", func() bool {
		it := lastItem(s)
		return !s.Running() && it.Kind == ChatAssistant && !it.Streaming
	})
	if it := lastItem(s); it.StopReason != rpcconn.StopReasonLength {
		t.Fatalf("cut-off reply has stop reason %q", it.StopReason)
	}
	// Loaded again from the session file, it still says so.
	before := lastItem(s).ID
	c.Restart()
	testsupport.Eventually(t, "reloaded", func() bool {
		it := lastItem(s)
		return s.View(nil).Conn == ConnReady && it.Kind == ChatAssistant && it.ID != before
	})
	if it := lastItem(s); it.StopReason != rpcconn.StopReasonLength {
		t.Fatalf("reloaded reply has stop reason %q", it.StopReason)
	}
}

// TestControllerEscapeOnAgentWithoutClearQueue: pi 0.73.1 cannot give
// queued messages back. Esc still stops the run, which settles; the queue
// stays, is said to go with the next prompt, and does.
func TestControllerEscapeOnAgentWithoutClearQueue(t *testing.T) {
	c, s, ui := startController(t, "--fake-older")
	c.Send("[[slow:100]] [[long:50]]", nil, false, nil)
	testsupport.Eventually(t, "running", s.Running)
	c.Send("steer me", nil, false, nil)
	c.Send("follow me", nil, true, nil)
	testsupport.Eventually(t, "queued", func() bool {
		v := s.View(nil)
		return len(v.Steering) == 1 && len(v.FollowUp) == 1
	})
	c.Escape()
	testsupport.Eventually(t, "settled after the abort", func() bool { return !s.Running() })
	testsupport.Eventually(t, "told what happens to the queue", func() bool {
		return strings.Contains(lastItem(s).Text, "2 queued messages stay with")
	})
	v := s.View(nil)
	if len(v.Steering) != 1 || len(v.FollowUp) != 1 || v.QueueNote != NoteQueueStays {
		t.Fatalf("queue after Esc: %q %q, note %q", v.Steering, v.FollowUp, v.QueueNote)
	}
	if d := ui.snapshot().drafts; len(d) != 0 {
		t.Fatalf("texts the agent still holds were put back in the editor too: %q", d)
	}
	aborted := false
	for _, it := range v.Items {
		aborted = aborted || it.Kind == ChatAssistant && it.StopReason == rpcconn.StopReasonAborted
	}
	if !aborted {
		t.Fatal("no aborted reply")
	}
	// Esc again changes nothing and says nothing new.
	n := len(v.Items)
	c.Escape()
	time.Sleep(100 * time.Millisecond)
	if len(s.View(nil).Items) != n {
		t.Fatalf("a second Esc added %+v", lastItem(s))
	}

	// The next prompt takes the queue with it, as the agent does.
	c.Send("next", nil, false, nil)
	testsupport.Eventually(t, "the queue went with the next prompt", func() bool {
		v := s.View(nil)
		if v.Running || len(v.Steering)+len(v.FollowUp) > 0 || v.QueueNote != "" {
			return false
		}
		var users []string
		for _, it := range v.Items {
			if it.Kind == ChatUser {
				users = append(users, it.Text)
			}
		}
		return strings.Join(users, "|") == "[[slow:100]] [[long:50]]|next|steer me|follow me"
	})
}
