// Package status tells what the agent is doing and what went wrong: the
// StatusBar (connection, model, tokens, cost, context meter), the Banner
// for crashes and warnings with the agent's stderr, toasts, and the
// notification history.
//
// It may import Fyne, model, widgets/kit and widgets/tools (the banner
// shows stderr in a MonoView).
package status
