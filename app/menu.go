package app

import (
	"fmt"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

func shortcut(key fyne.KeyName, mods fyne.KeyModifier) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: mods}
}

// menuItem is an action with its menu label and optional shortcut.
func menuItem(label string, action func(), sc fyne.Shortcut) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, action)
	it.Shortcut = sc
	return it
}

// buildMenu gives every action a place a person can find it, with the
// shortcuts the prompt editor also forwards. The actions act on the tab in
// front.
func (w *Window) buildMenu() *fyne.MainMenu {
	ctrl := fyne.KeyModifierShortcutDefault
	on := w.onTab
	// cmd and panel run a surface's action of the tab in front.
	cmd := func(f func(*tabCommands)) func() { return on(func(t *Tab) { f(t.commands) }) }
	panel := func(f func(*sessionPanels)) func() { return on(func(t *Tab) { f(t.panels) }) }
	session := fyne.NewMenu("Session",
		menuItem("New session", cmd((*tabCommands).actionNewSession), shortcut(fyne.KeyN, ctrl)),
		menuItem("Open session…", panel((*sessionPanels).actionBrowse), shortcut(fyne.KeyO, ctrl)),
		menuItem("Rename…", cmd((*tabCommands).actionRename), nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Fork from an earlier prompt…", cmd((*tabCommands).actionFork), nil),
		menuItem("Session tree…", panel((*sessionPanels).actionTree), treeShortcut),
		menuItem("System prompt…", cmd((*tabCommands).actionSystemPrompt), nil),
		menuItem("Clone", cmd((*tabCommands).actionClone), nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Restore files to before your last message…", on(func(t *Tab) { t.restore.restoreLast() }), nil),
		menuItem("Undo file restore", on(func(t *Tab) { t.restore.undo() }), nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Export as HTML…", cmd((*tabCommands).actionExport), shortcut(fyne.KeyE, ctrl)),
		menuItem("Copy last answer", cmd((*tabCommands).actionCopyLastAnswer), shortcut(fyne.KeyC, ctrl|fyne.KeyModifierShift)),
	)
	tabs := fyne.NewMenu("Tabs",
		menuItem("New tab", func() { w.NewTab() }, shortcut(fyne.KeyT, ctrl)),
		menuItem("New tab on another machine…", on((*Tab).actionRemoteTab), nil),
		menuItem("New tab in a worktree…", on((*Tab).actionWorktreeTab), nil),
		menuItem("Close tab", func() { w.closeTab(w.current) }, shortcut(fyne.KeyW, ctrl)),
		menuItem("Reopen closed tab", w.closed.reopenLast, reopenClosedShortcut),
		menuItem("Recently closed tabs…", func() { w.closed.choose(w.current) }, nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Next tab", func() { w.step(1) }, shortcut(fyne.KeyTab, fyne.KeyModifierControl)),
		menuItem("Previous tab", func() { w.step(-1) }, shortcut(fyne.KeyTab, fyne.KeyModifierControl|fyne.KeyModifierShift)),
	)
	w.stopItem = menuItem("Stop (Esc)", on((*Tab).actionStop), nil)
	w.abortRetryItem = menuItem("Abort retry", cmd((*tabCommands).actionAbortRetry), nil)
	agent := fyne.NewMenu("Agent",
		w.stopItem,
		menuItem("Command palette…", cmd((*tabCommands).actionPalette), shortcut(fyne.KeyK, ctrl)),
		menuItem("Next model", on(func(t *Tab) { t.shortcut("cycle-model") }), shortcut(fyne.KeyP, ctrl)),
		menuItem("Compact conversation…", cmd((*tabCommands).actionCompact), nil),
		menuItem("Agent behaviour…", cmd((*tabCommands).actionModes), nil),
		w.abortRetryItem,
		fyne.NewMenuItemSeparator(),
		menuItem("Restart agent", cmd((*tabCommands).actionRestart), nil),
		menuItem("Connect a model…", on(func(t *Tab) { t.modelSetup.openDialog() }), nil),
		menuItem("MCP servers…", cmd((*tabCommands).actionMCP), nil),
		menuItem("Settings…", on((*Tab).showSettings), shortcut(fyne.KeyComma, ctrl)),
	)
	view := fyne.NewMenu("View",
		menuItem("Find in conversation…", on((*Tab).actionFind), shortcut(fyne.KeyF, ctrl)),
		menuItem("Tool sidebar", on(func(t *Tab) { t.fold.flip() }), shortcut(fyne.KeyB, ctrl)),
		menuItem("Changes", on((*Tab).actionChanges), changesShortcut),
		fyne.NewMenuItemSeparator(),
		menuItem("Notifications…", cmd((*tabCommands).actionNotifications), nil),
		menuItem("Extension errors…", cmd((*tabCommands).actionExtensionLog), nil),
	)
	return fyne.NewMainMenu(session, tabs, agent, view)
}

// reopenClosedShortcut reopens the last closed tab, as in browsers.
var reopenClosedShortcut = shortcut(fyne.KeyT, fyne.KeyModifierShortcutDefault|fyne.KeyModifierShift)

// treeShortcut opens the session tree: Ctrl+Shift+E, as Ctrl+T opens a
// tab.
var treeShortcut = shortcut(fyne.KeyE, fyne.KeyModifierShortcutDefault|fyne.KeyModifierShift)

// tabKeys are the tab shortcuts beside the menu's: Ctrl+PageDown/PageUp
// step like Ctrl+Tab, Ctrl+1…9 pick a tab.
func (w *Window) tabKeys() map[fyne.Shortcut]func() {
	keys := map[fyne.Shortcut]func(){
		shortcut(fyne.KeyPageDown, fyne.KeyModifierControl): func() { w.step(1) },
		shortcut(fyne.KeyPageUp, fyne.KeyModifierControl):   func() { w.step(-1) },
	}
	for n := 1; n <= 9; n++ {
		keys[shortcut(fyne.KeyName(fmt.Sprint(n)), fyne.KeyModifierShortcutDefault)] = func() { w.pick(n) }
	}
	return keys
}

// bindShortcuts makes the menu's shortcuts work: macOS menus handle their
// own, elsewhere the window's canvas must be told, and the prompt editors
// (which have the focus most of the time) hand over what they do not use.
func (w *Window) bindShortcuts(menu *fyne.MainMenu) {
	w.actions = map[string]func(){}
	bind := func(sc fyne.Shortcut, action func(), inMenu bool) {
		w.actions[sc.ShortcutName()] = action
		if runtime.GOOS != "darwin" || !inMenu {
			w.win.Canvas().AddShortcut(sc, func(fyne.Shortcut) { action() })
		}
	}
	for _, m := range menu.Items {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Action != nil {
				bind(it.Shortcut, it.Action, true)
			}
		}
	}
	for sc, action := range w.tabKeys() {
		bind(sc, action, false)
	}
}
