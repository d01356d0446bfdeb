package app

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	native "github.com/sqweek/dialog"

	"knightcode.ai/desktop/app/setup"
	"knightcode.ai/desktop/model"
)

// agentSetup is the tab's surface for a tab without an agent: the agent
// panel in place of the conversation, the editor and header put away, the
// status bar where it always is. It goes once an agent is chosen, or the
// app's install of one finishes.
type agentSetup struct {
	tab   *Tab
	panel *setup.AgentPanel
	// hidden are the tab's parts put away while the panel shows.
	hidden []fyne.CanvasObject
}

func newAgentSetup(t *Tab) *agentSetup {
	a := &agentSetup{tab: t, panel: setup.NewAgentPanel(t.shell.installer)}
	a.panel.OnChoose = a.choose
	a.panel.Object().Hide()
	return a
}

// showing reports whether the tab is waiting for an agent.
func (a *agentSetup) showing() bool { return a.panel.Object().Visible() }

// show puts the panel up in place of the conversation.
func (a *agentSetup) show() {
	t := a.tab
	a.hidden = []fyne.CanvasObject{t.top, t.split, t.composer.prompt}
	for _, o := range a.hidden {
		o.Hide()
	}
	a.panel.Object().Show()
	a.panel.Start()
	t.body.Refresh()
	t.session.SetConn(model.ConnFailed, "no agent")
	t.Invalidate()
}

// hide takes the panel down and brings the conversation back.
func (a *agentSetup) hide() {
	a.panel.Stop()
	a.panel.Object().Hide()
	for _, o := range a.hidden {
		o.Show()
	}
	a.hidden = nil
	a.tab.body.Refresh()
}

// installed starts the agent the app just installed, if the tab still has
// none.
func (a *agentSetup) installed() {
	if a.showing() && a.tab.controller == nil {
		a.hide()
		a.tab.connect()
		a.tab.composer.focusEditor()
	}
}

// choose asks for the binary with the platform's file dialog, falling
// back to Fyne's where there is none.
func (a *agentSetup) choose() {
	a.tab.askNative(native.File().Title("Choose the KnightCode agent").Load, a.use, a.chooseInWindow)
}

func (a *agentSetup) chooseInWindow() {
	t := a.tab
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		r.Close()
		a.use(r.URI().Path())
	}, t.win)
	if home, err := os.UserHomeDir(); err == nil {
		if l, err := storage.ListerForURI(storage.NewFileURI(home)); err == nil {
			d.SetLocation(l)
		}
	}
	t.showFileDialog(d)
}

// use remembers the chosen binary and starts it.
func (a *agentSetup) use(path string) {
	t := a.tab
	if !isExecutableFile(path) {
		t.message("Not an executable", path+" cannot be run. Choose the agent's executable file.")
		return
	}
	t.settings.AgentPath = path
	t.settings.Save(t.app.Preferences())
	a.hide()
	t.connect()
	t.composer.focusEditor()
}
