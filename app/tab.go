package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/app/uiloop"
	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/chat"
	"knightcode.ai/desktop/widgets/palette"
	"knightcode.ai/desktop/widgets/prompt"
	"knightcode.ai/desktop/widgets/status"
	"knightcode.ai/desktop/widgets/tools"
)

// Tab is one session with its own agent: top bar, chat, tool sidebar,
// prompt bar and status bar, redrawn from Session views at most once per
// frame. Only the window's current tab is in the canvas; the others keep
// drawing into their widgets, so switching shows them at once.
type Tab struct {
	*tabHost
	settings Settings
	flags    Flags
	// view is what the window shows of the tab: the session, or the
	// first-run panel.
	view *fyne.Container
	// title is the window title while this tab is in front.
	title string

	// The tab's surfaces.
	composer *composer
	panels   *sessionPanels
	files    *agentFiles
	commands *tabCommands
	frames   *uiloop.Frames
	dialogs  *dialogQueue
	probe    *uiloop.PaintProbe

	chat     *chat.ChatView
	sidebar  *tools.ToolSidebar
	models   *palette.ModelPicker
	thinking *palette.ThinkingPicker
	status   *status.StatusBar
	banner   *status.Banner
	find     *chat.FindBar
	name     *widget.Label
	// firstPrompt is the first prompt's words, which name a session
	// that has no name.
	firstPrompt string
	// folder names the working folder beside the session's name.
	folder *widget.Label
	body   *fyne.Container
	// top is the header; split the conversation beside the sidebar,
	// which fold puts away in a narrow tab.
	top   fyne.CanvasObject
	split fyne.CanvasObject
	fold  *sidebarFold
	// agentSetup is the panel of a tab without an agent; modelSetup
	// connects a model, on the first screen and in Settings.
	agentSetup *agentSetup
	modelSetup *modelSetup
	// trust asks about the folder's own agent files.
	trust *folderTrust
	// git keeps the folder's checkpoints; restore puts files back.
	git     *folderGit
	restore *fileRestore
	// worktree is set for a tab made in a worktree of its own: its label
	// shows the branch, and closing it asks what becomes of them.
	worktree *gitwork.Worktree
	// right is the pane beside the transcript: Tools and Changes.
	right *rightPane

	above, below *prompt.ExtensionBlocks
	// draft keeps what the tab has not sent, and brings it back.
	draft *tabDraft
	retry *retryStrip
	// mark is what the tab's label says of its state, as last drawn;
	// unread is set when it finished (stopped, when it was stopped) while
	// in the background.
	mark    tabMark
	unread  bool
	stopped bool
	// closed is set once the tab has left the window.
	closed bool
	// stopBashTick stops the clock of running !commands.
	stopBashTick func()
}

// newTab makes a tab of shell; start builds it.
func newTab(shell *Window, flags Flags) *Tab {
	a := shell.app
	host := &tabHost{shell: shell, app: a, win: shell.win, bg: uiloop.NewWorkers(), modals: &modalStack{},
		session: model.NewSession()}
	t := &Tab{tabHost: host, flags: flags, settings: LoadSettings(a.Preferences()),
		view: container.NewStack()}
	host.tab = t
	t.panels = newSessionPanels(host)
	t.files = &agentFiles{tabHost: host}
	t.draft = newTabDraft(t, shell.drafts)
	t.trust = newFolderTrust(t)
	t.git = newFolderGit(checkpointDirs(a), t.settings.CheckpointDays)
	t.restore = &fileRestore{tabHost: host, git: t.git}
	t.frames = uiloop.NewHeldFrames(t.drawPaced, t.session.ReplyStreaming)
	t.dialogs = &dialogQueue{parent: t.win, do: t.do, stack: t.modals,
		respond: func(id string, ans model.Answer) {
			if t.controller != nil {
				t.controller.Respond(id, ans)
			}
		}}
	t.dialogs.done = func() {
		if t.modals.top() == nil {
			t.composer.focusEditor()
		}
	}
	// Once the last dialog closed, the keyboard goes back to the editor.
	t.modals.empty = func() { t.composer.focusEditor() }
	return t
}

// start builds the tab's widgets and starts its agent when one is found,
// else shows the first-run panel; a draft kept for its folder and
// session comes back.
func (t *Tab) start() {
	t.build()
	t.connect()
	t.draft.restore()
}

func (t *Tab) build() {
	// The surfaces first: the wiring below takes their methods as values,
	// and a method value of a surface not made yet panics when it is used.
	t.toasts = status.NewToastLayer()
	c := newComposer(t.tabHost, t.settings.BlinkCursor)
	t.composer = c
	t.commands = newTabCommands(t.tabHost)
	t.chat = chat.NewChatView()
	t.chat.OnToolChipTapped = func(id string) {
		t.right.showTools()
		t.sidebar.Select(id)
	}
	t.chat.SetOnEditPrompt(t.composer.editPrompt)
	t.chat.SetOnRestoreFiles(t.restore.restoreBefore)
	t.composer.beforeEditSend = t.restore.offerWithEdit
	// A prompt the agent has not taken: back into the editor, or out
	// again to a restarted agent, once.
	t.chat.SetOnStuckPrompt(func(string) {
		if t.controller != nil {
			t.controller.TakeBack()
		}
	}, func(string) { t.restart() })
	t.sidebar = tools.NewToolSidebar()
	t.right = newRightPane(t.sidebar, newChangesPane(t.tabHost, t.git, func() string { return sessionKey(t.session.SessionFile()) }))
	t.restore.changed = t.right.changedFiles
	t.sidebar.OnShowAll = t.files.openAgentFile
	t.models = palette.NewModelPicker()
	// After a pick the keyboard goes back to the editor: a picker left
	// focused would take the next keystrokes.
	t.models.OnChange = func(m model.ModelChoice) {
		t.controller.SelectModel(m.Provider, m.ID)
		t.composer.focusEditor()
	}
	t.thinking = palette.NewThinkingPicker()
	t.thinking.OnChange = func(level string) {
		t.controller.SelectThinking(level)
		t.composer.focusEditor()
	}
	t.status = status.NewStatusBar()
	t.banner = status.NewBanner()
	t.banner.OnRestart = t.restart
	t.name = widget.NewLabel("")
	t.name.Truncation = fyne.TextTruncateEllipsis
	t.folder = widget.NewLabel("")
	t.folder.Importance = widget.LowImportance
	t.panels.welcome = chat.NewWelcome()
	t.panels.welcome.OnOpen = t.panels.openRecent
	t.panels.welcome.OnBrowse = t.panels.actionBrowse
	if t.flags.SSH == "" {
		t.panels.welcome.OnChooseFolder = t.chooseFolder
	}
	t.panels.welcome.OnChooseWorktree = t.actionWorktreeTab
	t.panels.welcome.OnChooseHost = t.actionRemoteTab
	t.panels.welcome.Hide()
	c.edited = func(text string) {
		t.draft.edited(text)
		t.draft.keep()
	}
	c.attachmentsChanged = t.draft.keep
	c.scrollToBottom = t.chat.ScrollToBottom
	c.chooseModel = t.models.Open
	// Esc and the Stop button both clear the queue (back into the editor)
	// and abort.
	c.prompt.OnStop = t.stop
	c.prompt.Editor.OnEscape = t.stop
	c.prompt.Editor.OnShortcut = t.shortcut
	t.above, t.below = prompt.NewExtensionBlocks(), prompt.NewExtensionBlocks()
	t.retry = newRetryStrip(t.do, t.commands.actionAbortRetry)
	t.commands.appActions = t.appActions
	t.commands.restart = t.restart
	t.commands.openExport = t.files.openExport
	t.commands.toEditor = func(text string) {
		c.prompt.Editor.SetTextCursorAtEnd(text)
		c.focusEditor()
	}
	t.commands.commandsLoaded = c.slash.SetCommands
	t.commands.agentIdentity = t.agentIdentity

	settingsButton := widget.NewButtonWithIcon("", settingsIcon(), t.showSettings)
	attachButton := widget.NewButtonWithIcon("", attachIcon(), t.composer.actionAttach)
	t.find = t.newFindBar()
	t.modelSetup = newModelSetup(t.tabHost, t.restart, func() bool { return t.panels.ready })
	t.panels.setup = t.modelSetup
	split := container.NewHSplit(container.NewBorder(container.NewVBox(t.banner, t.find), nil, nil, nil,
		// Toasts show over the transcript's top right: not over the
		// header's pickers, the find bar or the editor, which the user
		// may just have used.
		container.NewStack(t.chat, t.panels.welcome, t.modelSetup.object(), t.toasts.Object())), t.right.object)
	split.Offset = 0.68
	t.split = split
	t.fold = newSidebarFold(split, t.right.object)
	header := container.New(&headerLayout{}, t.name, t.folder, t.models, t.thinking, t.fold.toggle, attachButton, settingsButton)
	t.fold.toggled = header.Refresh
	t.top = header
	bottom := container.NewVBox(t.retry.box, t.above, t.composer.draftRestore, t.composer.attachStrip, t.composer.prompt, t.below, t.status)
	t.agentSetup = newAgentSetup(t)
	t.body = container.NewBorder(t.top, bottom, nil, nil, t.fold.watch(split, t.agentSetup.panel.Object()))
	t.probe = uiloop.NewPaintProbe()
	t.right.pane.afterPaint = func(done func()) { t.probe.Wait(0, done, 0) }
	t.probe.Painted = func() {
		if trace.Enabled() {
			trace.Mark("painted", len(t.drawn.Items))
		}
	}
	t.view.Objects = []fyne.CanvasObject{t.body, t.probe.Object()}
	t.view.Refresh()
	t.composer.prompt.Editor.OnScrollKey = t.chat.ScrollKey
	t.composer.prompt.Editor.OnCopy = t.copySelection
	t.chat.OnSelectStart = t.sidebar.ClearSelection
	t.sidebar.OnSelectStart = t.chat.ClearSelection
	t.composer.prompt.Editor.OnOtherShortcut = t.shell.runShortcut
}
