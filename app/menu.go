package app

import (
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
// shortcuts the prompt editor also forwards.
func (w *Window) buildMenu() *fyne.MainMenu {
	ctrl := fyne.KeyModifierShortcutDefault
	session := fyne.NewMenu("Session",
		menuItem("New session", w.actionNewSession, shortcut(fyne.KeyN, ctrl)),
		menuItem("Open session…", w.actionBrowse, shortcut(fyne.KeyO, ctrl)),
		menuItem("Rename…", w.actionRename, nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Fork from an earlier prompt…", w.actionFork, nil),
		menuItem("Session tree…", w.actionTree, shortcut(fyne.KeyT, ctrl)),
		menuItem("Clone", w.actionClone, nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Export as HTML…", w.actionExport, shortcut(fyne.KeyE, ctrl)),
		menuItem("Copy last answer", w.actionCopyLastAnswer, shortcut(fyne.KeyC, ctrl|fyne.KeyModifierShift)),
	)
	agent := fyne.NewMenu("Agent",
		menuItem("Stop (Esc)", w.actionStop, nil),
		menuItem("Command palette…", w.actionPalette, shortcut(fyne.KeyK, ctrl)),
		menuItem("Next model", func() { w.shortcut("cycle-model") }, shortcut(fyne.KeyP, ctrl)),
		menuItem("Compact conversation…", w.actionCompact, nil),
		menuItem("Agent behaviour…", w.actionModes, nil),
		menuItem("Abort retry", w.actionAbortRetry, nil),
		fyne.NewMenuItemSeparator(),
		menuItem("Restart agent", w.actionRestart, nil),
		menuItem("Settings…", w.showSettings, shortcut(fyne.KeyComma, ctrl)),
	)
	view := fyne.NewMenu("View",
		menuItem("Find in conversation…", w.actionFind, shortcut(fyne.KeyF, ctrl)),
		fyne.NewMenuItemSeparator(),
		menuItem("Notifications…", w.actionNotifications, nil),
		menuItem("Extension errors…", w.actionExtensionLog, nil),
	)
	return fyne.NewMainMenu(session, agent, view)
}

// bindShortcuts makes the menu's shortcuts work: macOS menus handle their
// own, elsewhere the window's canvas must be told, and the prompt editor
// (which has the focus most of the time) hands over what it does not use.
func (w *Window) bindShortcuts(menu *fyne.MainMenu) {
	actions := map[string]func(){}
	for _, m := range menu.Items {
		for _, it := range m.Items {
			if it.Shortcut == nil || it.Action == nil {
				continue
			}
			action := it.Action
			actions[it.Shortcut.ShortcutName()] = action
			if runtime.GOOS != "darwin" {
				w.win.Canvas().AddShortcut(it.Shortcut, func(fyne.Shortcut) { action() })
			}
		}
	}
	w.prompt.Editor.OnOtherShortcut = func(s fyne.Shortcut) bool {
		if action := actions[s.ShortcutName()]; action != nil {
			action()
			return true
		}
		return false
	}
}
