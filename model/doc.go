// Package model is a session without a window: the plain data the widgets
// draw (ChatItem, ToolCard, Status, the rows of the pickers and browsers),
// the Session reducer that builds it from the agent's events and history,
// and the Controller that turns what the user asks for into commands to one
// agent and feeds its answers to the Session.
//
// It imports rpcconn (the protocol), sessionfiles (the session files on
// disk), remote (an agent over SSH), internal/trace and internal/nth, and
// never Fyne: `go list -deps` of it names no fyne.io package, so plain unit
// tests and -race cover it in seconds. The window reaches the user only
// through the UI interface the Controller is given. Protocol types stop
// here: what the window gets through UI and the Controller's answers is
// this package's plain types (Dialog, Answer, Image, Tree, Command,
// ForkMessage, …).
package model
