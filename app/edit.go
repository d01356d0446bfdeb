package app

import (
	"knightcode.ai/desktop/model"
)

// editNote is the prompt bar's note while an earlier prompt is edited.
const editNote = "Editing an earlier prompt: Enter sends it as a new branch from there · Esc cancels"

// editingPrompt is an earlier prompt the user edits to send again: which
// one (its entry, and which prompt of the conversation it is), its text
// then, and the draft it replaced in the editor.
type editingPrompt struct {
	id, original string
	ordinal      int
	savedDraft   string
}

// editPrompt puts an earlier prompt into the editor to be edited; sending
// it branches the conversation before it (Controller.SendEdited).
func (w *Tab) editPrompt(id, text string) {
	if w.controller == nil {
		return
	}
	ordinal, n := -1, 0
	for _, it := range w.drawn.Items {
		if it.Kind != model.ChatUser {
			continue
		}
		if it.ID == id {
			ordinal = n
			break
		}
		n++
	}
	if ordinal < 0 {
		return
	}
	saved := w.prompt.Editor.Text()
	if w.editing != nil {
		saved = w.editing.savedDraft
	}
	w.editing = &editingPrompt{id: id, original: text, ordinal: ordinal, savedDraft: saved}
	w.setEditorText(text)
	w.prompt.SetNote(editNote)
	w.focusEditor()
}

// cancelEdit ends editing an earlier prompt and gives the editor back the
// draft it held before, reporting whether there was an edit to cancel.
func (w *Tab) cancelEdit() bool {
	e := w.editing
	if e == nil {
		return false
	}
	w.editing = nil
	w.prompt.SetNote("")
	w.setEditorText(e.savedDraft)
	return true
}

// sendEdit sends the editor's text as the edited prompt, reporting whether
// an edit was under way.
func (w *Tab) sendEdit(text string, images []model.Image, accepted func()) bool {
	e := w.editing
	if e == nil {
		return false
	}
	w.editing = nil
	w.prompt.SetNote("")
	w.prompt.Editor.Clear()
	w.controller.SendEdited(e.ordinal, e.original, text, images, accepted)
	w.chat.ScrollToBottom()
	return true
}

// setEditorText replaces the draft, the cursor after its end.
func (w *Tab) setEditorText(text string) { w.prompt.Editor.SetTextCursorAtEnd(text) }
