package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
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

// The Edit action on a prompt in the transcript (not the composer's method
// called directly) puts the prompt in the editor: the chat is wired to the
// composer that exists, whatever order the tab builds its surfaces in.
func TestWindowEditFromTheTranscript(t *testing.T) {
	w, _ := openTestWindow(t)
	typeAndSend(w, "a prompt to edit")
	testsupport.Eventually(t, "the reply", func() bool { return settledReply(w) && len(drawn(w).Items) >= 2 })
	var edit *kit.CopyAction
	testsupport.Eventually(t, "an Edit action on screen", func() bool {
		onUI(func() { edit = quietAction(w.win.Content(), "Edit") })
		return edit != nil
	})
	onUI(func() { test.Tap(edit) })
	var text string
	onUI(func() { text = w.composer.prompt.Editor.Text() })
	if text != "a prompt to edit" {
		t.Fatalf("after Edit the editor holds %q", text)
	}
}

// quietAction finds, in the laid-out tree under o, the quiet action
// showing label.
func quietAction(o fyne.CanvasObject, label string) *kit.CopyAction {
	for _, obj := range test.LaidOutObjects(o) {
		a, ok := obj.(*kit.CopyAction)
		if !ok {
			continue
		}
		for _, part := range test.LaidOutObjects(a) {
			if txt, ok := part.(*canvas.Text); ok && txt.Text == label {
				return a
			}
		}
	}
	return nil
}
