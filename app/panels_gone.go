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

// SessionFolderGone implements folderGoneUI: the agent refused a session
// whose folder is gone (opened some other way than the browser, or the
// folder went after the browser listed it). It runs on a controller
// goroutine.
func (t *Tab) SessionFolderGone(path string) {
	info := sessionfiles.Describe(path)
	t.do(func() { t.panels.openSession(info) })
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

// openSession opens a session from the browser: at once when its folder
// is there, else after asking what to do instead.
func (p *sessionPanels) openSession(info sessionfiles.Info) {
	if _, remote := p.controller.Remote(); remote {
		// The folders, and the copy that would stand in for a gone one,
		// are on the host: the agent there says what it cannot open.
		p.controller.SwitchSession(info.Path)
		return
	}
	cwd := info.Cwd
	if cwd == "" {
		cwd = sessionfiles.Cwd(info.Path)
	}
	if !sessionfiles.FolderGone(cwd) {
		p.controller.SwitchSession(info.Path)
		return
	}
	p.offerGoneFolder(info, cwd)
}

// offerGoneFolder says a session's folder is gone and offers a copy in
// this folder (the default) or a read-only view.
func (p *sessionPanels) offerGoneFolder(info sessionfiles.Info, cwd string) {
	here := p.controller.WorkDir()
	title := sessionTitle(info)
	p.ask("This session's folder is gone",
		"“"+title+"” was recorded in "+cwd+", which no longer exists, so "+p.session.AgentName()+" cannot open it there.\n\n"+
			"Open a copy of it in "+here+" (the original file stays as it is), or read it without the agent.",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "View read-only", icon: theme.VisibilityIcon(), run: func() { p.viewSessionReadOnly(info, cwd) }},
		dialogAction{label: "Open a copy in this folder", icon: theme.ContentCopyIcon(), isDefault: true, run: func() { p.openSessionCopy(info.Path) }})
}

// openSessionCopy copies the session into this folder and opens the copy.
func (p *sessionPanels) openSessionCopy(path string) {
	here := p.controller.WorkDir()
	p.bg.Go(func(context.Context) {
		dst, err := sessionfiles.CopyToFolder(path, here)
		p.do(func() {
			if err != nil {
				p.message("Could not copy the session", "Copying "+path+" into "+here+" failed: "+err.Error())
				return
			}
			p.toasts.Show("Opened a copy in "+here+": "+dst, model.NoticeInfo)
			p.controller.SwitchSession(dst)
		})
	})
}

// viewSessionReadOnly shows a session's conversation, read from its file,
// in a window of its own: nothing goes to the agent. Esc or Close closes
// it; it offers the copy too.
func (p *sessionPanels) viewSessionReadOnly(info sessionfiles.Info, cwd string) {
	p.bg.Go(func(context.Context) {
		msgs, err := sessionfiles.ReadTranscript(info.Path)
		p.do(func() {
			if err != nil {
				p.message("Could not read the session", err.Error())
				return
			}
			s := model.NewSession()
			s.LoadHistory(msgs)
			v := s.View(nil)
			win := p.app.NewWindow(sessionTitle(info) + " — read-only — " + appTitle)
			chat := chat.NewChatView()
			chat.SetItems(v.Items)
			note := widget.NewLabel("Read-only, from " + info.Path + ". It was recorded in " + cwd + ", which no longer exists; nothing here goes to the agent.")
			note.Wrapping = fyne.TextWrapWord
			closeKeys := &kit.DialogKeys{Cancel: win.Close}
			open := kit.NewDialogButton("Open a copy in this folder", theme.ContentCopyIcon(), func() {
				win.Close()
				p.openSessionCopy(info.Path)
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
			p.readOnly = append(p.readOnly, win)
			win.SetOnClosed(func() {
				for i, o := range p.readOnly {
					if o == win {
						p.readOnly = append(p.readOnly[:i], p.readOnly[i+1:]...)
						break
					}
				}
			})
			win.Show()
		})
	})
}
