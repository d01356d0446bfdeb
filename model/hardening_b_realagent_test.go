package model

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
	"knightcode.ai/desktop/sessionfiles"
)

// The cases of issue 10's second half that pi 0.73.1 shows for itself: a
// loaded session longer than the model's window, a session whose folder is
// gone.

// TestRealAgentContextOverTheWindow: pi reports a loaded session whose
// last reply used 180k tokens, on a model with a 32k window, as 565 % of
// it; the status bar says in words that it does not fit.
func TestRealAgentContextOverTheWindow(t *testing.T) {
	c, s, _, env := startPi(t, nil)
	waitPiReady(t, s)
	file := testsupport.PiFixture(t, t.TempDir(), env.WorkDir, 180000)
	c.SwitchSession(file)
	testsupport.Eventually(t, "the session loaded", func() bool { return s.SessionFile() == file && len(s.View(nil).Items) > 2 })
	testsupport.Eventually(t, "the session's stats", func() bool { return s.View(nil).Status.ContextPercent > 100 })
	st := s.View(nil).Status
	got := st.ContextSummary()
	if !strings.HasSuffix(got, "tokens: more than this model's 32k window") || strings.Contains(got, "%") {
		t.Fatalf("pi's context usage %v%% of %d (%d tokens) is shown as %q", st.ContextPercent, st.ContextWindow, st.ContextTokens, got)
	}
	t.Logf("pi: %.1f%% of %d tokens; the status bar says %q", st.ContextPercent, st.ContextWindow, got)
}

// TestRealAgentSessionWithGoneFolder: pi refuses a session whose folder is
// gone ("Stored session working directory does not exist"). The copy the
// window offers opens in pi with the whole conversation, takes the next
// prompt, and the original file stays as it was; the read-only view reads
// the same conversation from the file that pi loaded.
func TestRealAgentSessionWithGoneFolder(t *testing.T) {
	c, s, _, env := startPi(t, nil, pienv.WithSessionDir(""))
	waitPiReady(t, s)
	src, _ := testsupport.GoneFixture(t, env.SessionDir)
	before, _ := os.ReadFile(src)

	infos, _, err := c.Sessions(t.Context(), true)
	if err != nil {
		t.Fatal(err)
	}
	marked := false
	for _, in := range infos {
		marked = marked || (in.Path == src && in.FolderGone)
	}
	if !marked {
		t.Fatalf("the browser does not mark %s: %+v", src, infos)
	}

	c.SwitchSession(src)
	testsupport.Eventually(t, "pi refuses it", func() bool {
		return strings.Contains(lastItem(s).Text, "Stored session working directory does not exist")
	})
	t.Logf("pi refused the original: %q", lastItem(s).Text)

	dst, err := sessionfiles.CopyToFolder(src, c.WorkDir())
	if err != nil {
		t.Fatal(err)
	}
	c.SwitchSession(dst)
	testsupport.Eventually(t, "pi opened the copy", func() bool { return s.SessionFile() == dst && len(UserPrompts(s.View(nil).Items)) == 2 })
	if got := strings.Join(UserPrompts(s.View(nil).Items), "|"); got != "Say hello to the session browser|And once more, please" {
		t.Fatalf("pi loaded %q", got)
	}
	read, err := sessionfiles.ReadTranscript(src)
	if err != nil {
		t.Fatal(err)
	}
	ro := NewSession()
	ro.LoadHistory(read)
	if a, b := transcriptTexts(ro.View(nil)), transcriptTexts(s.View(nil)); a != b {
		t.Fatalf("read-only view:\n%s\npi:\n%s", a, b)
	}

	c.Send("one more in the copy", nil, false, nil)
	testsupport.Eventually(t, "reply", func() bool { return idleAfterReply(s) && len(UserPrompts(s.View(nil).Items)) == 3 })
	copied, _ := os.ReadFile(dst)
	after, _ := os.ReadFile(src)
	if !bytes.Equal(before, after) || !bytes.Contains(copied, []byte("one more in the copy")) {
		t.Fatalf("original changed %v; the copy has the new prompt %v", !bytes.Equal(before, after), bytes.Contains(copied, []byte("one more in the copy")))
	}
}

// transcriptTexts is a view's user and assistant texts, one a line.
func transcriptTexts(v View) string {
	var lines []string
	for _, it := range v.Items {
		switch it.Kind {
		case ChatUser:
			lines = append(lines, "user: "+it.Text)
		case ChatAssistant:
			var text []string
			for _, b := range it.Blocks {
				text = append(text, b.Text)
			}
			lines = append(lines, "assistant: "+strings.Join(text, ""))
		}
	}
	return strings.Join(lines, "\n")
}
