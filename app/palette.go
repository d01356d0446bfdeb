package app

import (
	"strings"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/prompt"
)

type appAction struct {
	item model.PaletteItem
	run  func()
}

// actionPalette lists the app's actions and the agent's commands.
func (w *Tab) actionPalette() {
	items := w.appActions()
	run := map[string]func(){}
	for _, a := range items {
		run[a.item.ID] = a.run
	}
	list := make([]model.PaletteItem, 0, len(items)+len(w.commands))
	for _, a := range items {
		list = append(list, a.item)
	}
	list = append(list, w.commands...)
	w.palette.SetItems(list)
	w.palette.OnRun = func(it model.PaletteItem) {
		if f := run[it.ID]; f != nil {
			f()
			return
		}
		// An agent command: into the editor, to add arguments and send.
		w.prompt.Editor.SetTextCursorAtEnd(it.Title + " ")
		w.focusEditor()
	}
	w.palette.Show(w.win.Canvas())
}

func (w *Tab) appActions() []appAction {
	a := func(id, title, detail, sc string, run func()) appAction {
		return appAction{model.PaletteItem{ID: "app:" + id, Title: title, Detail: detail, Source: "app", Shortcut: sc}, run}
	}
	return append([]appAction{
		a("stop", "Stop", "Abort the run or the running !command", "Esc", w.actionStop),
		a("new", "New session", "Start a fresh conversation", "Ctrl+N", w.actionNewSession),
		a("open", "Open session…", "Browse and resume saved sessions", "Ctrl+O", w.actionBrowse),
		a("rename", "Rename session…", "Give this session a name", "", w.actionRename),
		a("fork", "Fork from an earlier prompt…", "Branch the conversation", "", w.actionFork),
		a("tree", "Session tree…", "See every branch", "Ctrl+Shift+E", w.actionTree),
		a("new-tab", "New tab", "Another session with its own agent, in this folder", "Ctrl+T", func() { w.shell.NewTab() }),
		a("remote-tab", "New tab on another machine…", "An agent on an SSH host", "", w.actionRemoteTab),
		a("close-tab", "Close tab", "Stop this tab's agent", "Ctrl+W", func() { w.shell.closeTab(w) }),
		a("reopen-tab", "Reopen closed tab", "The last tab closed, with its unsent draft", "Ctrl+Shift+T", w.shell.closed.reopenLast),
		a("closed-tabs", "Recently closed tabs…", "Pick a closed tab to reopen", "", func() { w.shell.closed.choose(w) }),
		a("next-tab", "Next tab", "", "Ctrl+Tab", func() { w.shell.step(1) }),
		a("previous-tab", "Previous tab", "", "Ctrl+Shift+Tab", func() { w.shell.step(-1) }),
		a("clone", "Clone session", "Copy this branch into a new session", "", w.actionClone),
		a("export", "Export as HTML…", "Save the transcript to share", "Ctrl+E", w.actionExport),
		a("system-prompt", "System prompt…", "What the agent tells the model before the conversation", "", w.actionSystemPrompt),
		a("copy", "Copy last answer", "", "Ctrl+Shift+C", w.actionCopyLastAnswer),
		a("find", "Find in conversation…", "Search the whole transcript", "Ctrl+F", w.actionFind),
		a("compact", "Compact conversation…", "Summarise to free context", "", w.actionCompact),
		a("modes", "Agent behaviour…", "Auto-compaction, auto-retry, queue modes", "", w.actionModes),
		a("model", "Switch model", "Next model", "Ctrl+P", func() { w.shortcut(prompt.ShortcutCycleModel) }),
		a("thinking", "Next thinking level", "", "Shift+Tab", func() { w.shortcut(prompt.ShortcutCycleThinking) }),
		a("attach", "Attach images…", "PNG, JPEG, GIF or WebP", "", w.actionAttach),
		a("restart", "Restart agent", "", "", w.actionRestart),
		a("notifications", "Notifications…", "What extensions said", "", w.actionNotifications),
		a("errors", "Extension errors…", "", "", w.actionExtensionLog),
		a("settings", "Settings…", "Agent, working folder, theme, text size, models", "Ctrl+,", w.showSettings),
		a("mcp", "MCP servers…", "The agent's MCP servers: state, reconnect, sign in, enable or disable", "", w.actionMCP),
		a("connect-model", "Connect a model…", "A model server on this computer, or a cloud provider's API key", "", w.modelSetup.openDialog),
	}, debugActions(a)...)
}

// loadCommands fetches the agent's commands for the palette and the "/"
// completion.
func (w *Tab) loadCommands() {
	if w.controller == nil {
		return
	}
	model.Ask(w.controller, model.CallTimeout, w.controller.Commands, func(cmds []model.Command, err error) {
		if err != nil {
			return // the palette and "/" offer the app's own commands only
		}
		items := make([]model.PaletteItem, len(cmds))
		for i, c := range cmds {
			detail := c.Description
			if p := c.Path; p != "" {
				detail = strings.TrimSpace(detail + " · " + p)
			}
			items[i] = model.PaletteItem{ID: "cmd:" + c.Name, Title: "/" + c.Name, Detail: detail, Source: c.Source}
		}
		w.commands = items
		w.slash.SetCommands(items)
	})
}
