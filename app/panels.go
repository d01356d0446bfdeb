package app

import (
	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/widgets/chat"
)

// sessionPanels are the ways to find and open a session: the first screen
// of an empty conversation with the folder's recent sessions, the session
// browser with its message search and preview, the session tree, and what
// happens when a session's folder is gone (a copy here, or a read-only
// window).
type sessionPanels struct {
	*tabHost
	// welcome is the first screen of an empty conversation, recent what
	// it knows of the folder's sessions.
	welcome *chat.Welcome
	recent  recentSessions
	// ready is set once the first agent has loaded the session: before,
	// an empty conversation may only not have arrived yet.
	ready bool
	// messages searches the sessions' messages for the browser;
	// findOnOpen is a browser result being opened, to find in it.
	messages   messageSearch
	findOnOpen findTarget
	// tree is the session tree while it is open.
	tree *openTree
	// readOnly are the windows showing a session read-only.
	readOnly []fyne.Window
	// setup is the model connection screen, which the first screen gives
	// way to while no model is connected.
	setup *modelSetup
}

// newSessionPanels makes the panels of host's tab; the welcome screen is
// built with the tab's widgets.
func newSessionPanels(host *tabHost) *sessionPanels {
	p := &sessionPanels{tabHost: host}
	p.messages.host = host
	return p
}
