// Package setup owns the two surfaces between a new user and a first reply:
// the agent panel (no agent found: install the current one, with progress,
// output and Cancel, or choose one) and the models panel (connect a model
// server found on this computer, or a cloud provider's API key, with a
// check through the agent). Each is one type that owns its state and its
// widgets; the app places them (the first screen, Settings, a dialog) and
// gives them a Host for what only the app can do: hop to the UI goroutine,
// run work joined to the tab, restart the agent.
//
// It imports Fyne, widgets/kit, agentsetup and modelsetup, never model or
// rpcconn: the agent's files and install are reached through those two
// Fyne-free packages.
package setup
