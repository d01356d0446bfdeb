package app

import (
	"strings"

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
	// sending is set once Enter was pressed: a second Enter while the
	// files are looked at does not send it twice.
	sending bool
}

// editPrompt puts an earlier prompt into the editor to be edited; sending
// it branches the conversation before it (Controller.SendEdited).
func (c *composer) editPrompt(id, text string) {
	if c.controller == nil {
		return
	}
	ordinal, n := -1, 0
	for _, it := range c.drawn.Items {
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
	saved := c.prompt.Editor.Text()
	if c.editing != nil {
		saved = c.editing.savedDraft
	}
	c.editing = &editingPrompt{id: id, original: text, ordinal: ordinal, savedDraft: saved}
	c.setEditorText(text)
	c.prompt.SetNote(editNote)
	c.focusEditor()
}

// cancelEdit ends editing an earlier prompt and gives the editor back the
// draft it held before, reporting whether there was an edit to cancel.
func (c *composer) cancelEdit() bool {
	e := c.editing
	if e == nil {
		return false
	}
	c.editing = nil
	c.prompt.SetNote("")
	c.setEditorText(e.savedDraft)
	return true
}

// sendEdit sends the editor's text as the edited prompt, reporting whether
// an edit was under way.
func (c *composer) sendEdit(text string, images []model.Image, accepted func()) bool {
	e := c.editing
	if e == nil {
		return false
	}
	send := func() {
		if c.editing != e {
			return // cancelled, or another edit began, while the files were looked at
		}
		// What the editor holds now: typing may have gone on while the
		// files were looked at.
		if now := strings.TrimRight(c.prompt.Editor.Text(), "\n"); strings.TrimSpace(now) != "" {
			text = now
		}
		c.editing = nil
		c.prompt.SetNote("")
		c.prompt.Editor.Clear()
		c.controller.SendEdited(e.ordinal, e.original, text, images, accepted)
		c.scrollToBottom()
	}
	if c.beforeEditSend == nil {
		send()
		return true
	}
	if !e.sending {
		e.sending = true
		c.beforeEditSend(e.id, func() {
			e.sending = false
			send()
		}, func() { e.sending = false }) // not sent: Enter sends again
	}
	return true
}

// setEditorText replaces the draft, the cursor after its end.
func (c *composer) setEditorText(text string) { c.prompt.Editor.SetTextCursorAtEnd(text) }
