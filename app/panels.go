package app

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
	"knightcode.ai/desktop/widgets/prompt"
	"knightcode.ai/desktop/widgets/sessions"
	"knightcode.ai/desktop/widgets/status"
)

// actionBrowse opens the session browser: this folder's sessions first,
// all folders on request, search as you type.
func (w *Tab) actionBrowse() {
	if !w.needAgent() {
		return
	}
	k := newKeyDialog(w.win, w.modals)
	b := sessions.NewSessionBrowser()
	// listed are the sessions shown, to know more of the one opened.
	var listed []sessionfiles.Info
	load := func(all bool) {
		sessions := func(ctx context.Context) ([]sessionfiles.Info, error) {
			infos, _, err := w.controller.Sessions(ctx, all)
			return infos, err
		}
		model.Ask(w.controller, model.CallTimeout, sessions, func(infos []sessionfiles.Info, err error) {
			if err != nil {
				w.showError(err)
				return
			}
			listed = infos
			b.SetSessions(sessionRows(infos, w.session.SessionFile()))
		})
	}
	// The index covers this computer's session files; a host's are
	// searched by title, folder and model only.
	if _, remote := w.controller.Remote(); !remote {
		search := func(q string) {
			if strings.TrimSpace(q) != "" {
				w.messages.search(q, b.SetMessageHits)
			}
		}
		b.OnQuery = search
		w.messages.catchUp(sessionRootsOf(w.controller.Options().Args), func() { search(b.Query()) })
	}
	b.OnPreview = func(path string) { w.preview(path, b.SetPreview) }
	b.OnOpen = func(path string) {
		// Found by what was said: the transcript opens at the match.
		if _, ok := b.MessageHit(path); ok {
			w.findOnOpen = findTarget{path: path, query: b.Query()}
		}
		k.Close()
		for _, in := range listed {
			if in.Path == path {
				w.openSession(in)
				return
			}
		}
		w.openSession(sessionfiles.Info{Path: path})
	}
	b.OnNew = func() {
		k.Close()
		w.controller.NewSession()
	}
	b.OnScopeChanged = load
	b.OnClose = k.Cancel
	k.build("Sessions", b)
	k.Resize(fyne.NewSize(760, 520))
	k.Show()
	b.FocusSearch(w.win.Canvas())
	load(b.Scope())
}

func sessionRows(infos []sessionfiles.Info, current string) []model.SessionRow {
	rows := make([]model.SessionRow, len(infos))
	for i, in := range infos {
		title := in.Name
		if title == "" {
			title = in.FirstPrompt
		}
		if title == "" {
			title = "(empty session)"
		}
		problems := in.Problems
		if in.FolderGone {
			problems = append([]string{"folder no longer exists"}, problems...)
		}
		rows[i] = model.SessionRow{Path: in.Path, Title: title, Subtitle: in.Cwd, Modified: in.Modified,
			Messages: in.MessageCount, Model: in.Model, Problem: strings.Join(problems, "; "), Current: in.Path == current}
	}
	return rows
}

// actionTree shows the session as a tree; fork from any user message.
func (w *Tab) actionTree() {
	if !w.needAgent() {
		return
	}
	k := newKeyDialog(w.win, w.modals)
	t := sessions.NewSessionTree()
	t.OnFork = func(entryID string) {
		k.Close()
		w.controller.Fork(entryID)
	}
	t.OnClose = k.Cancel
	k.onClosed = func() { w.tree = nil }
	k.build("Session tree", t)
	k.Resize(fyne.NewSize(760, 560))
	k.Show()
	w.tree = &openTree{view: t}
	w.refreshTree(w.tree)
}

// openTree is the tree dialog while it is open, with the last entry shown,
// so new entries are fetched with get_entries' cursor, not the whole tree.
type openTree struct {
	view   *sessions.SessionTree
	lastID string
	depth  map[string]int
}

func (w *Tab) refreshTree(ot *openTree) {
	type tree struct {
		roots []rpcconn.TreeNode
		leaf  string
	}
	ask := func(ctx context.Context) (tree, error) {
		roots, leaf, err := w.controller.Tree(ctx)
		return tree{roots, leaf}, err
	}
	model.Ask(w.controller, model.CallTimeout, ask, func(t tree, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		rows := treeRows(t.roots, t.leaf)
		ot.depth = map[string]int{}
		for _, r := range rows {
			ot.depth[r.ID] = r.Depth
		}
		if n := len(rows); n > 0 {
			ot.lastID = lastAppended(t.roots)
		}
		ot.view.SetRows(rows)
		ot.view.Focus(w.win.Canvas())
	})
}

// followTree appends the entries added since the tree was drawn.
func (w *Tab) followTree() {
	ot := w.tree
	if ot == nil || ot.lastID == "" || w.controller == nil {
		return
	}
	after := ot.lastID
	since := func(ctx context.Context) ([]rpcconn.Entry, error) { return w.controller.EntriesSince(ctx, after) }
	model.Ask(w.controller, model.CallTimeout, since, func(entries []rpcconn.Entry, err error) {
		if err != nil || len(entries) == 0 || w.tree != ot {
			return
		}
		rows := make([]model.TreeRow, 0, len(entries))
		for _, e := range entries {
			r := entryRow(e)
			r.Depth = ot.depth[r.ParentID]
			ot.depth[r.ID] = r.Depth
			r.OnActiveBranch = true
			rows = append(rows, r)
			ot.lastID = e.ID
		}
		rows[len(rows)-1].IsLeaf = true
		ot.view.AppendRows(rows)
	})
}

// lastAppended finds the newest entry of a tree by timestamp order of the
// file: the session's append order ends at the newest timestamp.
func lastAppended(roots []rpcconn.TreeNode) string {
	newest, id := "", ""
	stack := make([]*rpcconn.TreeNode, 0, len(roots))
	for i := range roots {
		stack = append(stack, &roots[i])
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Entry.Timestamp >= newest {
			newest, id = n.Entry.Timestamp, n.Entry.ID
		}
		for i := range n.Children {
			stack = append(stack, &n.Children[i])
		}
	}
	return id
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

type appAction struct {
	item model.PaletteItem
	run  func()
}

func (w *Tab) appActions() []appAction {
	a := func(id, title, detail, sc string, run func()) appAction {
		return appAction{model.PaletteItem{ID: "app:" + id, Title: title, Detail: detail, Source: "app", Shortcut: sc}, run}
	}
	return []appAction{
		a("stop", "Stop", "Abort the run or the running !command", "Esc", w.actionStop),
		a("new", "New session", "Start a fresh conversation", "Ctrl+N", w.actionNewSession),
		a("open", "Open session…", "Browse and resume saved sessions", "Ctrl+O", w.actionBrowse),
		a("rename", "Rename session…", "Give this session a name", "", w.actionRename),
		a("fork", "Fork from an earlier prompt…", "Branch the conversation", "", w.actionFork),
		a("tree", "Session tree…", "See every branch", "Ctrl+Shift+E", w.actionTree),
		a("new-tab", "New tab", "Another session with its own agent, in this folder", "Ctrl+T", func() { w.shell.NewTab() }),
		a("remote-tab", "New tab on another machine…", "An agent on an SSH host", "", w.actionRemoteTab),
		a("close-tab", "Close tab", "Stop this tab's agent", "Ctrl+W", func() { w.shell.closeTab(w) }),
		a("next-tab", "Next tab", "", "Ctrl+Tab", func() { w.shell.step(1) }),
		a("previous-tab", "Previous tab", "", "Ctrl+Shift+Tab", func() { w.shell.step(-1) }),
		a("clone", "Clone session", "Copy this branch into a new session", "", w.actionClone),
		a("export", "Export as HTML…", "Save the transcript to share", "Ctrl+E", w.actionExport),
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
		a("settings", "Settings…", "Agent, working folder, theme, text size", "Ctrl+,", w.showSettings),
	}
}

// loadCommands fetches the agent's commands for the palette and the "/"
// completion.
func (w *Tab) loadCommands() {
	if w.controller == nil {
		return
	}
	model.Ask(w.controller, model.CallTimeout, w.controller.Commands, func(cmds []rpcconn.Command, err error) {
		if err != nil {
			return // the palette and "/" offer the app's own commands only
		}
		items := make([]model.PaletteItem, len(cmds))
		for i, c := range cmds {
			detail := c.Description
			if p := c.FilePath(); p != "" {
				detail = strings.TrimSpace(detail + " · " + p)
			}
			items[i] = model.PaletteItem{ID: "cmd:" + c.Name, Title: "/" + c.Name, Detail: detail, Source: c.Source}
		}
		w.commands = items
		w.slash.SetCommands(items)
	})
}

func (w *Tab) actionNotifications() {
	w.showNoticeList("Notifications", w.toasts.History())
}

func (w *Tab) actionExtensionLog() {
	w.showNoticeList("Extension errors", w.extErrors)
}

func (w *Tab) showNoticeList(title string, notices []model.Notice) {
	k := newKeyDialog(w.win, w.modals)
	list := status.NewNotificationList()
	list.OnClose = k.Cancel
	list.SetNotices(notices)
	// Copy puts the selected notice's whole text on the clipboard (the
	// text itself is not selectable: a selectable label would keep Esc).
	k.build(title, list,
		dialogAction{label: "Copy", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			if text := list.SelectedText(); text != "" {
				w.app.Clipboard().SetContent(text)
				w.toasts.Show("Copied", model.NoticeInfo)
			}
		}},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	k.Resize(fyne.NewSize(680, 440))
	k.Show()
}

// preview reads the last messages of the session at path from its file,
// on a worker, for the browser; nothing goes to the agent.
func (w *Tab) preview(path string, show func(path string, msgs []model.PreviewMessage, err error)) {
	c := w.controller
	w.bg.Go(func(ctx context.Context) {
		local, err := c.SessionFile(ctx, path)
		var msgs []rpcconn.Message
		if err == nil {
			msgs, err = sessionfiles.ReadTranscript(local)
		}
		preview := model.Preview(msgs)
		w.do(func() { show(path, preview, err) })
	})
}
