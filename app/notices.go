package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/status"
)

func (c *tabCommands) actionNotifications() {
	c.showNoticeList("Notifications", c.toasts.History())
}

func (c *tabCommands) actionExtensionLog() {
	c.showNoticeList("Extension errors", c.extErrors)
}

func (c *tabCommands) showNoticeList(title string, notices []model.Notice) {
	k := newKeyDialog(c.win, c.modals)
	list := status.NewNotificationList()
	list.OnClose = k.Cancel
	list.SetNotices(notices)
	// Copy puts the selected notice's whole text on the clipboard (the
	// text itself is not selectable: a selectable label would keep Esc).
	k.build(title, list,
		dialogAction{label: "Copy", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			if text := list.SelectedText(); text != "" {
				c.app.Clipboard().SetContent(text)
				c.toasts.Show("Copied", model.NoticeInfo)
			}
		}},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	k.Resize(fyne.NewSize(680, 440))
	k.Show()
}
