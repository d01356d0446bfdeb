package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/status"
)

func (w *Tab) actionNotifications() {
	w.showNoticeList("Notifications", w.toasts.History())
}

func (w *Tab) actionExtensionLog() {
	w.showNoticeList("Extension errors", w.extErrors)
}

func (w *Tab) showNoticeList(title string, notices []model.Notice) {
	k := newKeyDialog(w.win, w.modals)
	list := status.NewNotificationList()
	list.OnClose = k.Cancel
	list.SetNotices(notices)
	// Copy puts the selected notice's whole text on the clipboard (the
	// text itself is not selectable: a selectable label would keep Esc).
	k.build(title, list,
		dialogAction{label: "Copy", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			if text := list.SelectedText(); text != "" {
				w.app.Clipboard().SetContent(text)
				w.toasts.Show("Copied", model.NoticeInfo)
			}
		}},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	k.Resize(fyne.NewSize(680, 440))
	k.Show()
}
