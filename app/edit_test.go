package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// Edit on an earlier prompt puts it in the editor with a note; Enter sends
// it as a new branch from there; Esc gives the editor its draft back.
func TestWindowEditAndResend(t *testing.T) {
	w, _ := openTestWindow(t, "--session-dir", t.TempDir())
	typeAndSend(w, "first prompt")
	testsupport.Eventually(t, "first reply", func() bool { return settledReply(w) && len(drawn(w).Items) >= 2 })
	typeAndSend(w, "second prompt")
	testsupport.Eventually(t, "second reply", func() bool { return settledReply(w) && len(drawn(w).Items) >= 4 })

	v := drawn(w)
	second := v.Items[2]
	onUI(func() {
		w.composer.prompt.Editor.SetTextCursorAtEnd("a draft")
		w.composer.editPrompt(second.ID, second.Text)
	})
	var text, note string
	onUI(func() { text, note = w.composer.prompt.Editor.Text(), w.composer.prompt.Note() })
	if text != "second prompt" || note != editNote {
		t.Fatalf("editing: editor %q, note %q", text, note)
	}
	// Esc cancels: the draft comes back.
	onUI(func() { w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	onUI(func() { text, note = w.composer.prompt.Editor.Text(), w.composer.prompt.Note() })
	if text != "a draft" || note != "" || w.composer.editing != nil {
		t.Fatalf("after Esc: editor %q, note %q", text, note)
	}

	onUI(func() {
		w.composer.prompt.Editor.SetText("")
		w.composer.editPrompt(second.ID, second.Text)
		w.composer.prompt.Editor.SetTextCursorAtEnd("second prompt, edited")
		w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
	testsupport.Eventually(t, "the edited prompt answered on a new branch", func() bool {
		texts := model.UserPrompts(w.session.View(nil).Items)
		return settledReply(w) && len(texts) == 2 && texts[1] == "second prompt, edited"
	})
	onUI(func() { text, note = w.composer.prompt.Editor.Text(), w.composer.prompt.Note() })
	if text != "" || note != "" {
		t.Fatalf("after sending: editor %q, note %q", text, note)
	}

	// Up in the empty editor brings the prompts back, newest first.
	onUI(func() { w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp}) })
	onUI(func() { text = w.composer.prompt.Editor.Text() })
	if text != "second prompt, edited" {
		t.Fatalf("Up recalled %q", text)
	}
}
