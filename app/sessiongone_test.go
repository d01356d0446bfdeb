package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
	"knightcode.ai/desktop/widgets"
)

// TestCopySessionToFolder: the copy has the header's folder replaced and
// every other line byte for byte; it goes where the agent keeps the new
// folder's sessions; the original is not touched; copying again makes
// another copy, never overwriting one.
func TestCopySessionToFolder(t *testing.T) {
	root := t.TempDir()
	src, oldCwd := testsupport.GoneFixture(t, filepath.Join(root, sessionfiles.FolderName("/tmp/TestListSessionsRealPi3184103466/001/work")))
	before, _ := os.ReadFile(src)
	stamp := time.Now().Add(-time.Hour)
	os.Chtimes(src, stamp, stamp)
	here := t.TempDir()

	dst, err := sessionfiles.CopyToFolder(src, here)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, sessionfiles.FolderName(here), filepath.Base(src)); dst != want {
		t.Fatalf("copied to %s, want %s", dst, want)
	}
	after, _ := os.ReadFile(src)
	st, _ := os.Stat(src)
	if !bytes.Equal(before, after) || !st.ModTime().Equal(stamp) {
		t.Fatal("the original changed")
	}
	copied, _ := os.ReadFile(dst)
	oldLines, newLines := bytes.SplitAfter(before, []byte("\n")), bytes.SplitAfter(copied, []byte("\n"))
	if len(oldLines) != len(newLines) {
		t.Fatalf("%d lines copied, the original has %d", len(newLines), len(oldLines))
	}
	wantHeader := strings.Replace(string(oldLines[0]), `"cwd":"`+oldCwd+`"`, `"cwd":"`+here+`"`, 1)
	if string(newLines[0]) != wantHeader {
		t.Fatalf("header\n%s\nwant\n%s", newLines[0], wantHeader)
	}
	for i := 1; i < len(oldLines); i++ {
		if !bytes.Equal(oldLines[i], newLines[i]) {
			t.Fatalf("line %d changed:\n%s\n%s", i+1, oldLines[i], newLines[i])
		}
	}
	if sessionfiles.Cwd(dst) != here || sessionfiles.FolderGone(sessionfiles.Cwd(dst)) {
		t.Fatalf("the copy's folder is %q", sessionfiles.Cwd(dst))
	}

	// A flat session folder (--session-dir): beside the original.
	flat := t.TempDir()
	src2, _ := testsupport.GoneFixture(t, flat)
	a, err := sessionfiles.CopyToFolder(src2, here)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sessionfiles.CopyToFolder(src2, here)
	if err != nil {
		t.Fatal(err)
	}
	stem := strings.TrimSuffix(filepath.Base(src2), ".jsonl")
	if a != filepath.Join(flat, stem+"-copy.jsonl") || b != filepath.Join(flat, stem+"-copy-2.jsonl") {
		t.Fatalf("flat copies %s, %s", a, b)
	}
	infos, _, err := sessionfiles.List(t.Context(), []string{flat}, here, false)
	if err != nil || len(infos) != 2 {
		t.Fatalf("this folder lists %d sessions (%v), want the two copies", len(infos), err)
	}
	all, _, _ := sessionfiles.List(t.Context(), []string{flat}, here, true)
	var gone int
	for _, in := range all {
		if in.FolderGone {
			gone++
			if in.Path != src2 {
				t.Fatalf("%s marked gone", in.Path)
			}
		}
	}
	if gone != 1 {
		t.Fatalf("%d sessions marked gone, want the original", gone)
	}
}

// TestReadSessionTranscript: the conversation read from a file is what
// the agent loads from it (the fake agent's get_messages, which follows
// pi): the current branch, from the last compaction's summary on.
func TestReadSessionTranscript(t *testing.T) {
	for _, file := range []string{
		filepath.Join("..", "sessionfiles", "testdata", "sessions", "branches.jsonl"),
		filepath.Join("..", "sessionfiles", "testdata", "sessions", "pi-0.73.1.jsonl"),
		testsupport.GeneratedSession(t, 300),
	} {
		got, err := sessionfiles.ReadTranscript(file)
		if err != nil {
			t.Fatal(err)
		}
		want := testsupport.DecodeMessages(t, testsupport.AnswerMessages(t, file))
		if len(got) != len(want) {
			t.Fatalf("%s: %d messages, the agent loads %d", file, len(got), len(want))
		}
		for i := range got {
			if got[i].Role != want[i].Role || got[i].Content.Text() != want[i].Content.Text() || got[i].Summary != want[i].Summary {
				t.Fatalf("%s: message %d is %s %q, the agent's %s %q", file, i, got[i].Role, got[i].Content.Text(), want[i].Role, want[i].Content.Text())
			}
		}
	}
}

// TestWindowSessionWithGoneFolder: opening from the browser a session
// whose folder is gone asks, without sending it to the agent: Enter opens
// a copy in this folder (the agent gets the copy, the original stays as
// it was); View read-only shows the conversation in a window of its own,
// which Esc closes, and the agent gets nothing.
func TestWindowSessionWithGoneFolder(t *testing.T) {
	sessions := t.TempDir()
	src, _ := testsupport.GoneFixture(t, sessions)
	before, _ := os.ReadFile(src)
	w, log := openTestWindow(t, "--session-dir", sessions)

	var b *widgets.SessionBrowser
	onUI(func() {
		w.actionBrowse()
		b = w.modals.top().(*keyDialog).content.(*widgets.SessionBrowser)
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
		w.openSession(sessionfiles.Info{Path: src, Cwd: sessionfiles.Cwd(src), Name: "browser fixture"})
	})
	onUI(func() { w.modals.top().(*keyDialog).button("View read-only").Tapped(nil) })
	var ro fyne.Window
	testsupport.Eventually(t, "the read-only window", func() bool {
		onUI(func() {
			if len(w.readOnly) > 0 {
				ro = w.readOnly[0]
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
	onUI(func() { left = len(w.readOnly) })
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
