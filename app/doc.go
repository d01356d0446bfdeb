// Package app is the window: it puts the surfaces of widgets/ together for
// one session (model.Session and its model.Controller), runs the menu,
// shortcuts, dialogs and settings, prepares dropped images and finds the
// agent executable. Protocol types stop at model: the window gets model's
// plain types, and imports rpcconn only to start an agent (connect.go,
// rpcconn.Options).
//
// It is the only package that knows both model and widgets: it hands the
// model's plain data to the widgets and turns their callbacks into
// controller calls, always on the UI goroutine (uiloop.Do; a tab's do
// drops work once the tab has closed).
//
// Where things are, by type (files carry the type's name as a prefix):
//
//   - Window (window.go, tabs.go, lifecycle.go, menu.go): the OS window,
//     its tabs, the menu and quitting.
//   - Tab (tab.go): one session. tab.go lists the tab's surfaces and wires
//     them; tab_ui.go is its side of model.UI, tab_keys.go its keys,
//     draw.go draws the screen from one model.View, connect.go starts
//     its agent.
//   - tabHost (tabhost.go): what every surface of a tab shares (window,
//     modal stack, controller, do, background workers, toasts) and the
//     small dialogs made from it (keydialog.go, nativedialog.go).
//   - The surfaces, each a type owning its fields and methods:
//     composer (composer*.go: prompt editor, attachments, drops, editing,
//     slash completion, submit); sessionPanels (panels*.go: first screen,
//     browser and search, preview, tree, gone folders); dialogQueue
//     (extdialogs.go: the extension dialogs, one at a time); tabCommands
//     (commands.go, actions.go, palette.go, mcp.go, notices.go,
//     systemprompt.go: the palette and the actions; tab_actions.go lists
//     them across surfaces); modelSetup (connectmodel.go, settings_models.go:
//     connecting a model); agentFiles (open_output.go, output_viewer.go,
//     open_export.go: Show all and exports).
//   - Per tab but not surfaces: tabDraft (unsent text), folderTrust,
//     agentSetup (first run without an agent), retryStrip.
package app
