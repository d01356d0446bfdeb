package app

import (
	"strings"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/prompt"
)

// appActions are every action of the app, for the palette: the tab's own
// and those of its surfaces and the window, each once, with the words they
// are also found by and, for those that cannot run now, why.
func (t *Tab) appActions() []appAction {
	a := func(id, title, detail, sc string, run func()) appAction {
		return appAction{model.PaletteItem{ID: "app:" + id, Title: title, Detail: detail, Source: "app", Shortcut: sc}, run}
	}
	actions := append([]appAction{
		a("stop", "Stop", "Abort the run or the running !command", "Esc", t.actionStop),
		a("abort-retry", "Abort retry", "Stop waiting to retry after an error", "", t.commands.actionAbortRetry),
		a("new", "New session", "Start a fresh conversation", "Ctrl+N", t.commands.actionNewSession),
		a("open", "Open session…", "Browse and resume saved sessions", "Ctrl+O", t.panels.actionBrowse),
		a("rename", "Rename session…", "Give this session a name", "", t.commands.actionRename),
		a("fork", "Fork from an earlier prompt…", "Branch the conversation", "", t.commands.actionFork),
		a("tree", "Session tree…", "See every branch", "Ctrl+Shift+E", t.panels.actionTree),
		a("new-tab", "New tab", "Another session with its own agent, in this folder", "Ctrl+T", func() { t.shell.NewTab() }),
		a("remote-tab", "New tab on another machine…", "An agent on an SSH host", "", t.actionRemoteTab),
		a("worktree-tab", "New tab in a worktree…", "A branch and a folder of its own for an agent", "", t.actionWorktreeTab),
		a("close-tab", "Close tab", "Stop this tab's agent", "Ctrl+W", func() { t.shell.closeTab(t) }),
		a("reopen-tab", "Reopen closed tab", "The last tab closed, with its unsent draft", "Ctrl+Shift+T", t.shell.closed.reopenLast),
		a("closed-tabs", "Recently closed tabs…", "Pick a closed tab to reopen", "", func() { t.shell.closed.choose(t) }),
		a("next-tab", "Next tab", "", "Ctrl+Tab", func() { t.shell.step(1) }),
		a("previous-tab", "Previous tab", "", "Ctrl+Shift+Tab", func() { t.shell.step(-1) }),
		a("changes", "Changes", "What the folder changed: diffs, revert, stage, commit", "Ctrl+Shift+G", t.actionChanges),
		a("restore-last", "Restore files to before your last message…", "Put back the files as they were before your last message went out", "", t.restore.restoreLast),
		a("undo-restore", "Undo file restore", "Put the files back as they were before the last restore", "", t.restore.undo),
		a("clone", "Clone session", "Copy this branch into a new session", "", t.commands.actionClone),
		a("export", "Export as HTML…", "Save the transcript to share", "Ctrl+E", t.commands.actionExport),
		a("system-prompt", "System prompt…", "What the agent tells the model before the conversation", "", t.commands.actionSystemPrompt),
		a("copy", "Copy last answer", "", "Ctrl+Shift+C", t.commands.actionCopyLastAnswer),
		a("find", "Find in conversation…", "Search the whole transcript", "Ctrl+F", t.actionFind),
		a("compact", "Compact conversation…", "Summarise to free context", "", t.commands.actionCompact),
		a("modes", "Agent behaviour…", "Auto-compaction, auto-retry, queue modes", "", t.commands.actionModes),
		a("model", "Switch model", "Next model", "Ctrl+P", func() { t.shortcut(prompt.ShortcutCycleModel) }),
		a("thinking", "Next thinking level", "", "Shift+Tab", func() { t.shortcut(prompt.ShortcutCycleThinking) }),
		a("attach", "Attach images…", "PNG, JPEG, GIF or WebP", "", t.composer.actionAttach),
		a("restart", "Restart agent", "", "", t.commands.actionRestart),
		a("notifications", "Notifications…", "What extensions said", "", t.commands.actionNotifications),
		a("errors", "Extension errors…", "", "", t.commands.actionExtensionLog),
		a("settings", "Settings…", "Agent, working folder, theme, text size, models", "Ctrl+,", t.showSettings),
		a("mcp", "MCP servers…", "The agent's MCP servers: state, reconnect, sign in, enable or disable", "", t.commands.actionMCP),
		a("connect-model", "Connect a model…", "A model server on this computer, or a cloud provider's API key", "", t.modelSetup.openDialog),
	}, debugActions(a)...)
	v := t.session.View(&t.drawn)
	for i := range actions {
		it := &actions[i].item
		id := strings.TrimPrefix(it.ID, "app:")
		it.Keywords = actionKeywords[id]
		it.Unavailable = t.unavailable(id, v)
	}
	return actions
}

// actionKeywords are words people search for an action by that its title
// and detail do not hold.
var actionKeywords = map[string]string{
	"stop":          "cancel interrupt abort halt",
	"new":           "clear reset start",
	"open":          "resume load history browse",
	"fork":          "branch",
	"tree":          "branches history",
	"worktree-tab":  "git branch parallel isolate",
	"changes":       "git diff review revert stage commit files",
	"restore-last":  "undo rewind revert checkpoint rollback files",
	"undo-restore":  "redo checkpoint files",
	"export":        "save share",
	"copy":          "clipboard reply",
	"find":          "search",
	"compact":       "summarize summary context",
	"modes":         "settings steering follow-up",
	"model":         "llm provider",
	"thinking":      "reasoning effort",
	"attach":        "image picture screenshot",
	"restart":       "reload reconnect",
	"settings":      "preferences options configure dark light font",
	"connect-model": "ollama llama api key provider login",
	"mcp":           "servers tools",
}
