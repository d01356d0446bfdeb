package app

import (
	"knightcode.ai/desktop/widgets/chat"
)

// newFindBar makes the find strip above the transcript (Ctrl+F). It
// searches the chat's copy of the session; Esc gives the keyboard back to
// the editor.
func (w *Tab) newFindBar() *chat.FindBar {
	b := chat.NewFindBar()
	b.OnChanged = w.chat.Find
	b.OnNext = w.chat.FindNext
	b.OnPrevious = w.chat.FindPrevious
	b.OnClose = func() {
		w.chat.Find("")
		w.composer.focusEditor()
	}
	w.chat.OnFindChanged = func() { b.SetStatus(w.chat.FindStatus()) }
	return b
}

// actionFind opens the find strip, or takes the keyboard to it.
func (w *Tab) actionFind() {
	w.find.Open(w.win.Canvas())
	if q := w.find.Query(); q != "" {
		w.chat.Find(q)
	}
}

// findTarget is a query to find in a session once it is open.
type findTarget struct{ path, query string }
