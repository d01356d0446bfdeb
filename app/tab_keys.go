package app

// The tab's keys: what Esc, Stop, Ctrl+C and the editor's shortcuts do,
// and the keys the window gets with nothing focused.

import (
	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/prompt"
)

// copySelection is Ctrl+C outside the editor's own text: the selection of
// the sidebar or of the transcript, whichever was made last (starting one
// drops the other).
func (t *Tab) copySelection() bool {
	return t.sidebar.CopySelection() || t.chat.CopySelection()
}

// typedKey takes the keys the window gets with nothing focused: a dialog
// shows, and none of its widgets has the focus (Esc closes it, Enter
// presses its default button), or the transcript scrolls.
func (t *Tab) typedKey(ev *fyne.KeyEvent) {
	if t.modals.key(ev) {
		return
	}
	if ev.Name == fyne.KeyEscape && t.commands.palette.Showing() {
		t.commands.palette.Hide()
		return
	}
	t.chat.ScrollKey(ev.Name, 0)
}

// stop is Esc and the Stop button: it stops a running !command and the
// run, and takes back what waits. With a dialog showing, Esc belongs to
// the dialog, never to the agent.
func (t *Tab) stop() {
	if m := t.modals.top(); m != nil {
		m.Cancel()
		return
	}
	if !t.drawn.Running && t.composer.cancelEdit() {
		return
	}
	if t.controller == nil {
		return
	}
	if t.session.BashRunning() {
		t.controller.AbortBash()
	}
	t.controller.Escape()
}

// actionStop is Stop from the menu and the palette: as Esc, and it says so
// when nothing runs.
func (t *Tab) actionStop() {
	v := t.session.View(&t.drawn)
	if !stoppable(v) {
		t.toasts.Show("Nothing is running.", model.NoticeInfo)
		return
	}
	t.stop()
}

func (t *Tab) shortcut(name string) {
	if t.controller == nil {
		return
	}
	switch name {
	case prompt.ShortcutCycleModel:
		t.controller.CycleModel()
	case prompt.ShortcutCycleThinking:
		t.controller.CycleThinking()
	case prompt.ShortcutNewSession:
		t.controller.NewSession()
	case prompt.ShortcutPalette:
		t.commands.actionPalette()
	}
}

// hideOverlays closes what floats over the tab, as it goes behind
// another.
func (t *Tab) hideOverlays() {
	if t.commands.palette.Showing() {
		t.commands.palette.Hide()
	}
	t.composer.hideOverlays()
}
