package app

import (
	"context"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
	"knightcode.ai/desktop/widgets/chat"
	"knightcode.ai/desktop/widgets/kit"
)

// openSession opens a session from the browser: at once when its folder
// is there, else after asking what to do instead.
func (w *Tab) openSession(info sessionfiles.Info) {
	if _, remote := w.controller.Remote(); remote {
		// The folders, and the copy that would stand in for a gone one,
		// are on the host: the agent there says what it cannot open.
		w.controller.SwitchSession(info.Path)
		return
	}
	cwd := info.Cwd
	if cwd == "" {
		cwd = sessionfiles.Cwd(info.Path)
	}
	if !sessionfiles.FolderGone(cwd) {
		w.controller.SwitchSession(info.Path)
		return
	}
	w.offerGoneFolder(info, cwd)
}

// SessionFolderGone implements folderGoneUI: the agent refused a session
// whose folder is gone (opened some other way than the browser, or the
// folder went after the browser listed it). It runs on a controller
// goroutine.
func (w *Tab) SessionFolderGone(path string) {
	info := sessionfiles.Describe(path)
	w.do(func() { w.openSession(info) })
}

// offerGoneFolder says a session's folder is gone and offers a copy in
// this folder (the default) or a read-only view.
func (w *Tab) offerGoneFolder(info sessionfiles.Info, cwd string) {
	here := w.controller.WorkDir()
	title := sessionTitle(info)
	w.ask("This session's folder is gone",
		"“"+title+"” was recorded in "+cwd+", which no longer exists, so "+w.session.AgentName()+" cannot open it there.\n\n"+
			"Open a copy of it in "+here+" (the original file stays as it is), or read it without the agent.",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "View read-only", icon: theme.VisibilityIcon(), run: func() { w.viewSessionReadOnly(info, cwd) }},
		dialogAction{label: "Open a copy in this folder", icon: theme.ContentCopyIcon(), isDefault: true, run: func() { w.openSessionCopy(info.Path) }})
}

// openSessionCopy copies the session into this folder and opens the copy.
func (w *Tab) openSessionCopy(path string) {
	here := w.controller.WorkDir()
	w.bg.Go(func(context.Context) {
		dst, err := sessionfiles.CopyToFolder(path, here)
		w.do(func() {
			if err != nil {
				w.message("Could not copy the session", "Copying "+path+" into "+here+" failed: "+err.Error())
				return
			}
			w.toasts.Show("Opened a copy in "+here+": "+dst, model.NoticeInfo)
			w.controller.SwitchSession(dst)
		})
	})
}

// viewSessionReadOnly shows a session's conversation, read from its file,
// in a window of its own: nothing goes to the agent. Esc or Close closes
// it; it offers the copy too.
func (w *Tab) viewSessionReadOnly(info sessionfiles.Info, cwd string) {
	w.bg.Go(func(context.Context) {
		msgs, err := sessionfiles.ReadTranscript(info.Path)
		w.do(func() {
			if err != nil {
				w.message("Could not read the session", err.Error())
				return
			}
			s := model.NewSession()
			s.LoadHistory(msgs)
			v := s.View(nil)
			win := w.app.NewWindow(sessionTitle(info) + " — read-only — " + appTitle)
			chat := chat.NewChatView()
			chat.SetItems(v.Items)
			note := widget.NewLabel("Read-only, from " + info.Path + ". It was recorded in " + cwd + ", which no longer exists; nothing here goes to the agent.")
			note.Wrapping = fyne.TextWrapWord
			closeKeys := &kit.DialogKeys{Cancel: win.Close}
			open := kit.NewDialogButton("Open a copy in this folder", theme.ContentCopyIcon(), func() {
				win.Close()
				w.openSessionCopy(info.Path)
			}, closeKeys)
			closeButton := kit.NewDialogButton("Close", theme.CancelIcon(), win.Close, closeKeys)
			top := container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), container.NewCenter(container.NewHBox(open, closeButton)), note)
			win.SetContent(container.NewBorder(container.NewVBox(container.NewPadded(top), widget.NewSeparator()), nil, nil, nil, chat))
			win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
				if ev.Name == fyne.KeyEscape {
					win.Close()
				}
			})
			win.Resize(fyne.NewSize(900, 700))
			w.readOnly = append(w.readOnly, win)
			win.SetOnClosed(func() {
				for i, o := range w.readOnly {
					if o == win {
						w.readOnly = append(w.readOnly[:i], w.readOnly[i+1:]...)
						break
					}
				}
			})
			win.Show()
		})
	})
}

// sessionTitle is how the browser names a session.
func sessionTitle(info sessionfiles.Info) string {
	switch {
	case info.Name != "":
		return info.Name
	case info.FirstPrompt != "":
		return info.FirstPrompt
	}
	return filepath.Base(info.Path)
}
