// Package app turns the agent's protocol into a desktop session: Session holds
// the state built from events and is testable without a window, Controller
// turns user intents into commands, and the rest wires the window, keeps the
// settings and finds the agent executable.
//
// It is the only package that knows both rpcconn and widgets: it converts
// protocol types into the widgets' own plain data.
package app
