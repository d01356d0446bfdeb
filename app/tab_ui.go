package app

// The tab's side of model.UI: the controller calls these from its own
// goroutines; each hops to the UI goroutine (do) before touching a widget.

import (
	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/model"
)

// Invalidate implements UI.
func (t *Tab) Invalidate() { t.frames.Invalidate() }

// ConnectFailed implements UI. The banner saying so is drawn from the
// session, which already knows.
func (t *Tab) ConnectFailed(err error) { t.Invalidate() }

// ShowDialog implements UI.
func (t *Tab) ShowDialog(req model.Dialog) {
	t.do(func() {
		if t.closed {
			return
		}
		t.dialogs.Add(req)
		t.shell.tabAsks(t)
	})
}

// CloseDialogs implements UI.
func (t *Tab) CloseDialogs() {
	t.do(func() {
		t.dialogs.CloseAll()
		t.shell.refreshLabels()
	})
}

// SetEditorText implements UI. A draft it replaces can be restored.
func (t *Tab) SetEditorText(text string) { t.do(func() { t.composer.setByExtension(text) }) }

// Notify implements UI: a toast, kept in the history, and a desktop
// notification when the window or the tab is not in front.
func (t *Tab) Notify(n model.Notice) {
	t.do(func() {
		t.toasts.ShowNotice(n)
		if n.Source == "extension_error" {
			t.commands.extErrors = append(t.commands.extErrors, n)
		}
		// Behind another tab, the toast waits unseen: the desktop says it.
		if !t.shell.focused || !t.isCurrent() {
			t.app.SendNotification(fyne.NewNotification(appTitle, n.Text))
		}
	})
}

// Settled implements UI.
func (t *Tab) Settled(stopped bool) {
	t.do(func() {
		t.shell.tabFinished(t, stopped)
		t.right.pane.settled(stopped)
		t.panels.followTree()
		if len(t.commands.agentCommands) == 0 {
			t.commands.loadCommands()
		}
	})
}

// Do implements UI.
func (t *Tab) Do(f func()) { t.do(f) }

// RestoreDraft implements UI: the text goes below whatever is being typed.
func (t *Tab) RestoreDraft(text string) { t.do(func() { t.composer.restoreBelow(text) }) }

// GiveBack implements UI: what the agent took with it when it ended goes
// above the draft; the draft itself stays as typed.
func (t *Tab) GiveBack(texts []string) { t.do(func() { t.composer.giveBack(texts) }) }
