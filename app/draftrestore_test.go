package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestWindowDraftRestoreKeepsUsersDraft: an extension setting the
// editor's text twice leaves the user's own draft on offer, not its first
// text; a dropped file's note meanwhile comes in front of the offer and,
// undone, gives it back.
func TestWindowDraftRestoreKeepsUsersDraft(t *testing.T) {
	w, _ := openTestWindow(t)
	onUI(func() { w.composer.prompt.Editor.SetText("my own draft") })
	w.SetEditorText("extension, first")
	w.SetEditorText("extension, second")
	testsupport.Eventually(t, "the second text", func() bool { text, _ := editorState(w); return text == "extension, second" })
	var previous string
	var pending bool
	onUI(func() { previous, pending = w.composer.draftRestore.Previous(), w.composer.draftRestore.Pending() })
	if previous != "my own draft" || !pending {
		t.Fatalf("offered %q (pending %v), want the user's draft", previous, pending)
	}

	notes := filepath.Join(w.started.dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("plain text"), 0o644); err != nil {
		t.Fatal(err)
	}
	drop(w, notes)
	testsupport.Eventually(t, "the reference", func() bool { text, _ := editorState(w); return strings.Contains(text, "@notes.txt") })
	var note string
	onUI(func() { note, previous = w.composer.draftRestore.Note(), w.composer.draftRestore.Previous() })
	if !strings.Contains(note, "notes.txt") || previous != "my own draft" {
		t.Fatalf("after the drop: note %q, offered %q", note, previous)
	}
	onUI(w.composer.draftRestore.Act) // Undo the reference
	onUI(func() { note, pending = w.composer.draftRestore.Note(), w.composer.draftRestore.Pending() })
	if strings.Contains(note, "notes.txt") || !pending {
		t.Fatalf("after Undo: note %q, pending %v", note, pending)
	}
	onUI(w.composer.draftRestore.Act) // Restore draft
	if text, _ := editorState(w); text != "my own draft" {
		t.Fatalf("restored %q", text)
	}
}
