// Package widgets holds the custom Fyne widgets of the window: chat view,
// markdown view, tool sidebar, prompt editor, pickers and status bar.
//
// Widgets take plain data in their own small structs and never import rpcconn,
// so they can be tested and drawn without an agent. They also stay clear of
// fyne/v2/app and native dialogs, so their tests need no display or cgo.
package widgets
