package app

import (
	"strings"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/palette"
	"knightcode.ai/desktop/widgets/prompt"
)

// composer is where the user writes to the agent: the prompt editor and
// its "/" completion, attached images, dropped files, editing an earlier
// prompt, and sending. It keeps nothing else of the tab: what it needs of
// the others comes through the callbacks tab.go wires.
type composer struct {
	*tabHost
	prompt       *prompt.PromptBar
	slash        *palette.SlashCompletion
	attachStrip  *prompt.AttachmentStrip
	draftRestore *prompt.DraftRestore
	images       []*draftImage
	nextImage    int
	// editing is the earlier prompt being edited to send again, or nil.
	editing *editingPrompt
	// beforeEditSend (may be nil) runs before an edited prompt is sent
	// again, and sends it: the tab offers to restore the files too.
	beforeEditSend func(id string, send, abandoned func())
	// referenceNote is the draft as a dropped file's reference left it,
	// while the note offering to undo that shows.
	referenceNote string
	// extensionText is the text an extension last put in the editor
	// (set_editor_text): replaced again untouched, it is not offered back.
	extensionText string

	// Wired by the tab.
	// edited hears every change of the draft's text; attachmentsChanged
	// every change of its images.
	edited             func(text string)
	attachmentsChanged func()
	// scrollToBottom shows the end of the conversation, where what was
	// just sent goes.
	scrollToBottom func()
	// chooseModel opens the model picker.
	chooseModel func()
}

// newComposer builds the composer's widgets.
func newComposer(host *tabHost, blinkCursor bool) *composer {
	c := &composer{tabHost: host}
	c.prompt = prompt.NewPromptBar()
	c.prompt.OnSubmit = c.submit
	c.prompt.Editor.OnPaste = c.pasteImage
	c.prompt.Editor.SetCursorBlink(blinkCursor)
	// The idle timer's work goes through c.do (uiloop.Do), which the window
	// tests serialize with their own UI actions.
	c.prompt.Editor.RunOnUI = c.do
	c.draftRestore = prompt.NewDraftRestore()
	c.draftRestore.OnRestore = func() { c.prompt.Editor.SetTextCursorAtEnd(c.draftRestore.Previous()) }
	c.attachStrip = prompt.NewAttachmentStrip()
	c.attachStrip.OnRemove = c.removeImage
	c.attachStrip.OnPreview = c.previewImage
	c.slash = palette.NewSlashCompletion()
	c.slash.SetEditor(c.prompt.Editor)
	c.slash.OnAccept = c.prompt.Editor.SetTextCursorAtEnd
	c.prompt.Editor.OnChanged = c.editorChanged
	return c
}

// hideOverlays closes the "/" completion, as the tab goes behind another.
func (c *composer) hideOverlays() { c.slash.Hide() }

// setByExtension puts an extension's text in the editor
// (set_editor_text). A draft it replaces can be restored.
func (c *composer) setByExtension(text string) {
	c.referenceNote = "" // the line now offers the old draft back
	// What the extension itself put there, untouched, is not the user's
	// draft: the line keeps offering the user's (ShowFor keeps the first
	// while it is offered).
	old := c.prompt.Editor.Text()
	if strings.TrimSpace(old) != "" && old != text && old != c.extensionText {
		c.draftRestore.ShowFor(old)
	}
	c.extensionText = text
	c.prompt.Editor.SetTextCursorAtEnd(text)
	c.focusEditor()
}

// restoreBelow puts text back below whatever is being typed.
func (c *composer) restoreBelow(text string) {
	e := c.prompt.Editor
	if cur := strings.TrimRight(e.Text(), "\n"); cur != "" {
		text = cur + "\n\n" + text
	}
	e.SetTextCursorAtEnd(text)
}

// giveBack puts what the agent took with it when it ended above the draft
// (it was written first), a blank line between texts; the draft itself
// stays as typed.
func (c *composer) giveBack(texts []string) {
	e := c.prompt.Editor
	text := strings.Join(texts, "\n\n")
	if cur := strings.TrimLeft(e.Text(), "\n"); strings.TrimSpace(cur) != "" {
		text += "\n\n" + cur
	}
	e.SetTextCursorAtEnd(text)
}

func (c *composer) focusEditor() { c.focus(c.prompt.Editor) }

// editorChanged follows the draft for the "/" completion.
func (c *composer) editorChanged(text string) {
	if trace.Enabled() {
		trace.Mark("editor", len(text))
	}
	// The note offering to undo a dropped file's reference goes once the
	// draft changes otherwise: its Undo would take back that change.
	if c.referenceNote != "" && text != c.referenceNote {
		c.referenceNote = ""
		c.draftRestore.HideNote() // a draft restore behind it comes back
	}
	c.edited(text)
	if !strings.HasPrefix(text, "/") && !c.slash.Visible() {
		return
	}
	// A draft set behind (handed back, or by an extension) pops nothing
	// over the tab in front.
	if !c.isCurrent() {
		c.slash.Hide()
		return
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(c.prompt.Editor)
	c.slash.Update(c.win.Canvas(), text, pos)
}

func (c *composer) submit(text string, mode prompt.SubmitMode) {
	if c.slash.Visible() {
		if t, ok := c.slash.Accept(); ok {
			c.slash.OnAccept(t)
			return
		}
	}
	text = strings.TrimRight(text, "\n")
	ids, images, loading := c.readyImages()
	if (strings.TrimSpace(text) == "" && len(images) == 0) || c.controller == nil {
		return
	}
	if loading {
		c.toasts.Show("Images are still loading; send again in a moment.", model.NoticeInfo)
		return
	}
	if mode == prompt.SubmitPrompt && c.editing != nil && !strings.HasPrefix(text, "!") {
		c.sendEdit(text, images, func() {
			c.do(func() {
				for _, id := range ids {
					c.removeImage(id)
				}
			})
		})
		return
	}
	if strings.HasPrefix(text, "!") && len(images) == 0 {
		c.prompt.Editor.Clear()
		c.controller.RunBash(strings.TrimSpace(text[1:]))
		c.scrollToBottom()
		return
	}
	send := func() {
		// The editor is cleared now for a snappy feel; the controller hands
		// the text back if sending fails. Images go once the agent has them.
		c.referenceNote = ""
		c.prompt.Editor.Clear()
		c.draftRestore.Hide()
		c.controller.Send(text, images, mode == prompt.SubmitFollowUp, func() {
			c.do(func() {
				for _, id := range ids {
					c.removeImage(id)
				}
			})
		})
		c.scrollToBottom()
		c.focusEditor()
	}
	if len(images) > 0 && c.drawn.ModelID != "" && !c.drawn.ModelAccepts {
		c.confirmImagesForTextModel(send)
		return
	}
	send()
}

// confirmImagesForTextModel warns before images go to a model that does
// not read them: send anyway, or pick another model first (the default).
func (c *composer) confirmImagesForTextModel(send func()) {
	c.ask("This model does not read images", c.drawn.ModelName+" does not take images as input; the agent may drop them or fail.\nSend anyway, or switch to a model that reads images?",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Send anyway", run: send},
		dialogAction{label: "Switch model", isDefault: true, run: c.chooseModel})
}
