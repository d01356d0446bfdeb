package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/app/drafts"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// ownDrafts gives the test a drafts folder of its own, opened afresh by
// the next window, and returns it.
func ownDrafts(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	old := draftsDir
	draftsDir = func(fyne.App) string { return dir }
	t.Cleanup(func() { draftsDir = old })
	return dir
}

// restartDrafts forgets the process's keeper of dir, as a new process
// would not have it: the next window reads dir from disk.
func restartDrafts(dir string) {
	processKeepers.Lock()
	defer processKeepers.Unlock()
	delete(processKeepers.byDir, dir)
}

// attachedNames are the names of the tab's loaded attachments.
func attachedNames(w *Tab) []string {
	var names []string
	onUI(func() {
		for _, img := range w.composer.images {
			if !img.loading && img.err == nil {
				names = append(names, img.name)
			}
		}
	})
	return names
}

// TestWindowDraftSurvivesQuit: the draft, an attached image and the
// messages queued for a busy agent are written when the app quits (here:
// what a signal or a panic runs, keepForNextStart), and the next start in
// the same folder brings them all back, with a note that can discard them.
func TestWindowDraftSurvivesQuit(t *testing.T) {
	draftDir := ownDrafts(t)
	work := t.TempDir()
	w, _ := openTestWindowIn(t, work)
	typeAndSend(w, "hold on [[ext:confirm]] [[long:20]]")
	testsupport.Eventually(t, "the dialog", func() bool { return dialogOpen(w) })
	onUI(func() {
		w.controller.Send("steer me", nil, false, nil)
		w.controller.Send("follow me", nil, true, nil)
	})
	testsupport.Eventually(t, "queued", func() bool {
		v := drawn(w)
		return len(v.Steering) == 1 && len(v.FollowUp) == 1
	})
	pic := filepath.Join(t.TempDir(), "diagram.png")
	writePNG(t, pic, 48)
	drop(w, pic)
	testsupport.Eventually(t, "image loaded", func() bool { return readyCount(w) == 1 })
	onUI(func() { w.composer.prompt.Editor.SetText("a half-written thought") })
	onUI(w.shell.keepForNextStart)

	// What is on disk, as the next process reads it.
	restartDrafts(draftDir)
	k, err := drafts.Open(draftDir)
	if err != nil {
		t.Fatal(err)
	}
	kept := k.Kept()
	if len(kept) != 1 || kept[0].Text != "a half-written thought" || len(kept[0].Images) != 1 ||
		!slices.Equal(kept[0].Queued, []string{"steer me", "follow me"}) {
		t.Fatalf("kept on disk: %d drafts, first %q, %d images, queued %q", len(kept), kept[0].Text, len(kept[0].Images), kept[0].Queued)
	}
	if data, err := os.ReadFile(kept[0].Images[0].Path); err != nil || len(data) == 0 {
		t.Fatalf("the kept image %s: %v", kept[0].Images[0].Path, err)
	}
	restartDrafts(draftDir)

	// The next start in that folder.
	next, _ := openTestWindowIn(t, work)
	want := "steer me\n\nfollow me\n\na half-written thought"
	testsupport.Eventually(t, "the draft back in the editor", func() bool {
		text, _ := editorState(next)
		return text == want
	})
	testsupport.Eventually(t, "the image attached again", func() bool {
		return slices.Equal(attachedNames(next), []string{"diagram.png"})
	})
	var note string
	onUI(func() { note = next.composer.draftRestore.Note() })
	if !strings.Contains(note, "came back") {
		t.Fatalf("the note says %q", note)
	}
	// Discard takes back what came back.
	onUI(next.composer.draftRestore.Act)
	if text, _ := editorState(next); text != "" || len(attachedNames(next)) != 0 {
		t.Fatalf("after Discard: %q, %v", text, attachedNames(next))
	}
}

// TestWindowClosedTabReopensWithDraft: a tab closed with a draft leaves
// it in the recently closed tabs (a toast says so), the other tab does
// not claim it, and Ctrl+Shift+T opens the tab again with its draft, also
// after a restart.
func TestWindowClosedTabReopensWithDraft(t *testing.T) {
	draftDir := ownDrafts(t)
	w, _ := openTestWindow(t)
	var second *Tab
	onUI(func() { second = w.shell.NewTab() })
	testsupport.Eventually(t, "second tab ready", func() bool { return second.panels.ready })
	onUI(func() { second.composer.prompt.Editor.SetText("unsent words") })
	onUI(func() { w.shell.closeTab(second) })
	var toasts []model.Notice
	onUI(func() { toasts = w.toasts.History() })
	if len(toasts) == 0 || !strings.Contains(toasts[len(toasts)-1].Text, "Ctrl+Shift+T") {
		t.Fatalf("the toasts say %+v", toasts)
	}
	if text, _ := editorState(w); text != "" {
		t.Fatalf("the other tab took the closed tab's draft: %q", text)
	}

	// A restart: the closed tab is listed from disk.
	onUI(w.shell.flushDrafts)
	restartDrafts(draftDir)
	next, _ := openTestWindowIn(t, w.started.dir)
	if text, _ := editorState(next); text != "" {
		t.Fatalf("a new tab claimed the closed tab's draft: %q", text)
	}
	onUI(func() { next.shell.runShortcut(reopenClosedShortcut) })
	var back *Tab
	onUI(func() { back = next.shell.current })
	if back == next || len(next.shell.tabs) != 2 {
		t.Fatalf("Ctrl+Shift+T opened no tab (%d tabs)", len(next.shell.tabs))
	}
	testsupport.Eventually(t, "the reopened tab's draft", func() bool {
		text, _ := editorState(back)
		return text == "unsent words"
	})
	if l := next.shell.closed.list(); len(l) != 0 {
		t.Fatalf("still listed as closed: %+v", l)
	}
}
