package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
)

// actionSystemPrompt shows the agent's system prompt, as far as the agent
// sent it: pi 1.6 puts it in a message of role system with a session's
// first turn and at the head of get_messages; it is never a chat turn.
func (c *tabCommands) actionSystemPrompt() {
	sections := c.session.SystemPrompt()
	if len(sections) == 0 {
		c.message("System prompt", "The agent has not sent its system prompt. pi 1.6 sends it with a session's first turn (send a message, then look again); "+
			"older agents, and KnightCode's RPC reference, send none over RPC.")
		return
	}
	md := model.SystemPromptMarkdown(sections)
	k := newKeyDialog(c.win, c.modals)
	text := widget.NewRichTextFromMarkdown(md)
	text.Wrapping = fyne.TextWrapWord
	k.build("System prompt", container.NewVScroll(text),
		dialogAction{label: "Copy", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			c.app.Clipboard().SetContent(md)
			c.toasts.Show("System prompt copied", model.NoticeInfo)
		}},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	k.Resize(fyne.NewSize(760, 560))
	k.Show()
}
