package app

import (
	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/app/uiloop"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/status"
)

// tabHost is what a tab lends each of its surfaces (composer, session
// panels, extension dialogs, commands): the window they draw in and its
// dialogs, the tab's agent and last drawn view, the way to the UI
// goroutine, background work, and toasts. The tab embeds it, so the tab's
// own code reads the same fields; a surface holds the host, never the tab,
// and reaches the other surfaces only through the callbacks tab.go wires.
type tabHost struct {
	shell *Window
	app   fyne.App
	win   fyne.Window
	// modals are the open dialogs, for the keyboard.
	modals *modalStack
	// bg runs the tab's background work; closing the tab stops it first.
	bg     *uiloop.Workers
	toasts *status.ToastLayer
	// session is what the tab's agent has said, as the view is drawn from;
	// controller drives the agent: nil until one is started, and replaced
	// when it restarts; started is how it was last started.
	session    *model.Session
	controller *model.Controller
	started    startInfo
	// drawn is the last view drawn, so unchanged parts are skipped; the
	// surfaces read it, only the tab's draw writes it.
	drawn model.View
	// tab is the tab these belong to: the window asks about it by identity.
	tab *Tab
}

// do runs f on the UI goroutine, soon; it never waits. Once Fyne's loop
// has ended it does nothing: Fyne would then run f at once on the calling
// goroutine, with the window and the graphics library gone.
func (h *tabHost) do(f func()) { h.shell.do(f) }

// isCurrent reports whether the tab is the one in front.
func (h *tabHost) isCurrent() bool { return h.shell.isCurrent(h.tab) }

// focus gives obj the keyboard, if this tab is in front: a tab behind
// must never take it from the one being typed in.
func (h *tabHost) focus(obj fyne.Focusable) {
	if h.isCurrent() {
		h.win.Canvas().Focus(obj)
	}
}

func (h *tabHost) needAgent() bool {
	if h.controller == nil {
		h.message("No agent", "Choose the agent executable first.")
		return false
	}
	return true
}
