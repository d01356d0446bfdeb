package app

import (
	"knightcode.ai/desktop/widgets/chat"
)

// newFindBar makes the find strip above the transcript (Ctrl+F). It
// searches the chat's copy of the session; Esc gives the keyboard back to
// the editor.
func (t *Tab) newFindBar() *chat.FindBar {
	b := chat.NewFindBar()
	b.OnChanged = t.chat.Find
	b.OnNext = t.chat.FindNext
	b.OnPrevious = t.chat.FindPrevious
	b.OnClose = func() {
		t.chat.Find("")
		t.composer.focusEditor()
	}
	t.chat.OnFindChanged = func() { b.SetStatus(t.chat.FindStatus()) }
	return b
}

// actionFind opens the find strip, or takes the keyboard to it.
func (t *Tab) actionFind() {
	t.find.Open(t.win.Canvas())
	if q := t.find.Query(); q != "" {
		t.chat.Find(q)
	}
}

// findTarget is a query to find in a session once it is open.
type findTarget struct{ path, query string }
