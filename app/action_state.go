package app

import (
	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/model"
)

// stoppable reports whether Stop has anything to stop in v: a run, a
// !command, prompts waiting or queued.
func stoppable(v model.View) bool {
	return v.Running || v.BashRunning || len(v.Waiting) > 0 || len(v.Steering)+len(v.FollowUp) > 0
}

// unavailable says why the app action id (without its "app:") cannot run
// now, in a few words for its greyed row; "" when it can.
func (t *Tab) unavailable(id string, v model.View) string {
	switch id {
	case "stop":
		if !stoppable(v) {
			return "nothing is running"
		}
	case "abort-retry":
		if v.Retry == nil {
			return "no retry is waiting"
		}
	case "reopen-tab", "closed-tabs":
		if len(t.shell.closed.list()) == 0 {
			return "no closed tab"
		}
	case "next-tab", "previous-tab":
		if len(t.shell.tabs) < 2 {
			return "only one tab"
		}
	}
	return ""
}

// refreshMenu follows the tab in front: the Agent menu's Stop and Abort
// retry are enabled only while they have something to act on. The menu
// is set again only when that changes (a native menu bar is rebuilt).
func (w *Window) refreshMenu() {
	if w.menu == nil || w.current == nil {
		return
	}
	v := w.current.drawn
	changed := setDisabled(w.stopItem, !stoppable(v))
	changed = setDisabled(w.abortRetryItem, v.Retry == nil) || changed
	if changed {
		w.win.SetMainMenu(w.menu)
	}
}

// setDisabled sets it's state and reports whether that changed.
func setDisabled(it *fyne.MenuItem, disabled bool) bool {
	if it == nil || it.Disabled == disabled {
		return false
	}
	it.Disabled = disabled
	return true
}
