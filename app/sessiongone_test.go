package app

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
	"knightcode.ai/desktop/widgets/sessions"
)

// TestWindowSessionWithGoneFolder: opening from the browser a session
// whose folder is gone asks, without sending it to the agent: Enter opens
// a copy in this folder (the agent gets the copy, the original stays as
// it was); View read-only shows the conversation in a window of its own,
// which Esc closes, and the agent gets nothing.
func TestWindowSessionWithGoneFolder(t *testing.T) {
	dir := t.TempDir()
	src, _ := testsupport.GoneFixture(t, dir)
	before, _ := os.ReadFile(src)
	w, log := openTestWindow(t, "--session-dir", dir)

	var b *sessions.SessionBrowser
	onUI(func() {
		w.panels.actionBrowse()
		b = w.modals.top().(*keyDialog).content.(*sessions.SessionBrowser)
		b.OnScopeChanged(true)
	})
	testsupport.Eventually(t, "listed", func() bool {
		infos, _, err := w.controller.Sessions(t.Context(), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sessionRows(infos, "") {
			if r.Path == src && strings.Contains(r.Problem, "folder no longer exists") {
				return true
			}
		}
		return false
	})
	onUI(func() { b.OnOpen(src) })
	var text string
	onUI(func() { text = w.modals.top().(*keyDialog).content.(*widget.Label).Text })
	if !strings.Contains(text, "which no longer exists") || !strings.Contains(text, w.controller.WorkDir()) {
		t.Fatalf("asked %q", text)
	}
	if n := len(sentOfType(t, log, "switch_session")); n != 0 {
		t.Fatalf("the gone session was sent to the agent %d times", n)
	}
	press(w, fyne.KeyReturn) // Open a copy in this folder
	testsupport.Eventually(t, "the copy opened", func() bool { return len(sentOfType(t, log, "switch_session")) == 1 })
	opened := sentOfType(t, log, "switch_session")[0]["sessionPath"].(string)
	if opened == src || sessionfiles.Cwd(opened) != w.controller.WorkDir() {
		t.Fatalf("opened %s (folder %s)", opened, sessionfiles.Cwd(opened))
	}
	testsupport.Eventually(t, "the transcript", func() bool {
		return strings.Contains(strings.Join(userTextsOf(drawn(w)), "|"), "Say hello to the session browser")
	})
	if after, _ := os.ReadFile(src); !bytes.Equal(before, after) {
		t.Fatal("the original changed")
	}

	// Opened another way (the agent refuses it, as pi does): the same
	// question, not the agent's error.
	w.controller.SwitchSession(src)
	testsupport.Eventually(t, "asked after the agent refused", func() bool {
		var text string
		onUI(func() {
			if k, ok := w.modals.top().(*keyDialog); ok {
				if l, ok := k.content.(*widget.Label); ok {
					text = l.Text
				}
			}
		})
		return strings.Contains(text, "“browser fixture” was recorded in")
	})
	press(w, fyne.KeyEscape)
	for _, it := range drawn(w).Items {
		if it.Kind == model.ChatNotice && strings.Contains(it.Text, "does not exist") {
			t.Fatalf("the agent's refusal shown as well: %q", it.Text)
		}
	}

	switches := len(sentOfType(t, log, "switch_session"))

	// View read-only.
	onUI(func() {
		w.panels.openSession(sessionfiles.Info{Path: src, Cwd: sessionfiles.Cwd(src), Name: "browser fixture"})
	})
	onUI(func() { w.modals.top().(*keyDialog).button("View read-only").Tapped(nil) })
	var ro fyne.Window
	testsupport.Eventually(t, "the read-only window", func() bool {
		onUI(func() {
			if len(w.panels.readOnly) > 0 {
				ro = w.panels.readOnly[0]
			}
		})
		return ro != nil
	})
	var title string
	onUI(func() { title = ro.Title() })
	if !strings.Contains(title, "browser fixture — read-only") {
		t.Fatalf("title %q", title)
	}
	onUI(func() { ro.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	var left int
	onUI(func() { left = len(w.panels.readOnly) })
	if left != 0 {
		t.Fatal("Esc left the read-only window open")
	}
	if n := len(sentOfType(t, log, "switch_session")); n != switches {
		t.Fatalf("viewing sent switch_session (%d in all)", n)
	}
}

func userTextsOf(v model.View) []string {
	var out []string
	for _, it := range v.Items {
		if it.Kind == model.ChatUser {
			out = append(out, it.Text)
		}
	}
	return out
}

// TestWindowFindsSessionsByTheirMessages: the browser finds a session by a
// word said only in a reply, through the index in the cache folder, and
// opening it finds that word in the transcript.
func TestWindowFindsSessionsByTheirMessages(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	work := t.TempDir()
	dir := t.TempDir()
	src := testsupport.PiFixture(t, dir, work, 0)
	w, log := openTestWindowIn(t, work, "--session-dir", dir)

	var b *sessions.SessionBrowser
	onUI(func() {
		w.panels.actionBrowse()
		b = w.modals.top().(*keyDialog).content.(*sessions.SessionBrowser)
	})
	// "scripted" is in the replies only, not in the title, folder or
	// model. It is typed at once, before the new index has been built: the
	// browser asks again when the index has caught up.
	onUI(func() {
		b.FocusSearch(w.win.Canvas())
		b.SetQuery("scripted")
	})
	testsupport.Eventually(t, "found by a word of a reply", func() bool {
		found := false
		onUI(func() { _, found = b.MessageHit(src) })
		return found
	})
	onUI(func() { b.OnOpen(src) })
	testsupport.Eventually(t, "opened", func() bool { return len(sentOfType(t, log, "switch_session")) == 1 })
	testsupport.Eventually(t, "the word found in the transcript", func() bool {
		var q string
		var total int
		onUI(func() {
			w.draw()
			q = w.find.Query()
			_, total = w.chat.FindStatus()
		})
		return q == "scripted" && total > 0
	})
}

// TestWindowPreviewReadsTheFile: the browser's preview of a session comes
// from its file, without the agent: the last prompts and replies.
func TestWindowPreviewReadsTheFile(t *testing.T) {
	work := t.TempDir()
	src := testsupport.PiFixture(t, t.TempDir(), work, 0)
	w, log := openTestWindowIn(t, work)
	before := len(sentOfType(t, log, "switch_session")) + len(sentOfType(t, log, "get_messages"))
	got := make(chan []model.PreviewMessage, 1)
	onUI(func() {
		reads := &previewReads{host: w.tabHost}
		reads.read(src, func(path string, msgs []model.PreviewMessage, err error) {
			if err != nil || path != src {
				t.Errorf("preview of %s: %v", path, err)
			}
			got <- msgs
		})
	})
	msgs := <-got
	if len(msgs) < 2 || msgs[0].Who != "You" || msgs[0].Text != "Say hello to the session browser" || msgs[0].When.IsZero() {
		t.Fatalf("preview %+v", msgs)
	}
	if n := len(sentOfType(t, log, "switch_session")) + len(sentOfType(t, log, "get_messages")); n != before {
		t.Fatalf("the preview went through the agent (%d requests)", n-before)
	}
}
