package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/app/uiloop"
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
	// top is the header; split the conversation beside the sidebar.
	top   fyne.CanvasObject
	split fyne.CanvasObject
	// agentSetup is the panel of a tab without an agent; modelSetup
	// connects a model, on the first screen and in Settings.
	agentSetup *agentSetup
	modelSetup *modelSetup
	// trust asks about the folder's own agent files.
	trust *folderTrust

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
	w := &Tab{tabHost: host, flags: flags, settings: LoadSettings(a.Preferences()),
		view: container.NewStack()}
	host.tab = w
	w.panels = newSessionPanels(host)
	w.files = &agentFiles{tabHost: host}
	w.draft = newTabDraft(w, shell.drafts)
	w.trust = newFolderTrust(w)
	w.frames = uiloop.NewFrames(w.drawPaced)
	w.dialogs = &dialogQueue{parent: w.win, do: w.do, stack: w.modals,
		respond: func(id string, ans model.Answer) {
			if w.controller != nil {
				w.controller.Respond(id, ans)
			}
		}}
	w.dialogs.done = func() {
		if w.modals.top() == nil {
			w.composer.focusEditor()
		}
	}
	// Once the last dialog closed, the keyboard goes back to the editor.
	w.modals.empty = func() { w.composer.focusEditor() }
	return w
}

// start builds the tab's widgets and starts its agent when one is found,
// else shows the first-run panel; a draft kept for its folder and
// session comes back.
func (w *Tab) start() {
	w.build()
	w.connect()
	w.draft.restore()
}

// hideOverlays closes what floats over the tab, as it goes behind
// another.
func (w *Tab) hideOverlays() {
	if w.commands.palette.Showing() {
		w.commands.palette.Hide()
	}
	w.composer.hideOverlays()
}

func (w *Tab) build() {
	w.chat = chat.NewChatView()
	w.chat.OnToolChipTapped = func(id string) { w.sidebar.Select(id) }
	w.chat.SetOnEditPrompt(w.composer.editPrompt)
	// A prompt the agent has not taken: back into the editor, or out
	// again to a restarted agent, once.
	w.chat.SetOnStuckPrompt(func(string) {
		if w.controller != nil {
			w.controller.TakeBack()
		}
	}, func(string) { w.restart() })
	w.sidebar = tools.NewToolSidebar()
	w.sidebar.OnShowAll = w.files.openAgentFile
	w.models = palette.NewModelPicker()
	// After a pick the keyboard goes back to the editor: a picker left
	// focused would take the next keystrokes.
	w.models.OnChange = func(m model.ModelChoice) {
		w.controller.SelectModel(m.Provider, m.ID)
		w.composer.focusEditor()
	}
	w.thinking = palette.NewThinkingPicker()
	w.thinking.OnChange = func(level string) {
		w.controller.SelectThinking(level)
		w.composer.focusEditor()
	}
	w.status = status.NewStatusBar()
	w.banner = status.NewBanner()
	w.banner.OnRestart = w.restart
	w.name = widget.NewLabel("")
	w.name.Truncation = fyne.TextTruncateEllipsis
	w.folder = widget.NewLabel("")
	w.folder.Importance = widget.LowImportance
	w.panels.welcome = chat.NewWelcome()
	w.panels.welcome.OnOpen = w.panels.openRecent
	w.panels.welcome.OnBrowse = w.panels.actionBrowse
	if w.flags.SSH == "" {
		w.panels.welcome.OnChooseFolder = w.chooseFolder
	}
	w.panels.welcome.OnChooseHost = w.actionRemoteTab
	w.panels.welcome.Hide()
	w.toasts = status.NewToastLayer()
	c := newComposer(w.tabHost, w.settings.BlinkCursor)
	w.composer = c
	c.edited = func(text string) {
		w.draft.edited(text)
		w.draft.keep()
	}
	c.attachmentsChanged = w.draft.keep
	c.scrollToBottom = w.chat.ScrollToBottom
	c.chooseModel = w.models.Open
	// Esc and the Stop button both clear the queue (back into the editor)
	// and abort.
	c.prompt.OnStop = w.stop
	c.prompt.Editor.OnEscape = w.stop
	c.prompt.Editor.OnShortcut = w.shortcut
	w.above, w.below = prompt.NewExtensionBlocks(), prompt.NewExtensionBlocks()
	w.commands = newTabCommands(w.tabHost)
	w.retry = newRetryStrip(w.do, w.commands.actionAbortRetry)
	w.commands.appActions = w.appActions
	w.commands.restart = w.restart
	w.commands.openExport = w.files.openExport
	w.commands.toEditor = func(text string) {
		c.prompt.Editor.SetTextCursorAtEnd(text)
		c.focusEditor()
	}
	w.commands.commandsLoaded = c.slash.SetCommands

	settingsButton := widget.NewButtonWithIcon("", settingsIcon(), w.showSettings)
	attachButton := widget.NewButtonWithIcon("", attachIcon(), w.composer.actionAttach)
	w.top = container.NewBorder(nil, nil, nil, container.NewHBox(w.folder, w.models, w.thinking, attachButton, settingsButton), w.name)
	w.find = w.newFindBar()
	w.modelSetup = newModelSetup(w.tabHost, w.restart, func() bool { return w.panels.ready })
	w.panels.setup = w.modelSetup
	split := container.NewHSplit(container.NewBorder(container.NewVBox(w.banner, w.find), nil, nil, nil,
		container.NewStack(w.chat, w.panels.welcome, w.modelSetup.object())), w.sidebar)
	split.Offset = 0.68
	w.split = split
	bottom := container.NewVBox(w.retry.box, w.above, w.composer.draftRestore, w.composer.attachStrip, w.composer.prompt, w.below, w.status)
	w.agentSetup = newAgentSetup(w)
	w.body = container.NewBorder(w.top, bottom, nil, nil, container.NewStack(split, w.agentSetup.panel.Object()))
	w.probe = uiloop.NewPaintProbe()
	w.probe.Painted = func() {
		if trace.Enabled() {
			trace.Mark("painted", len(w.drawn.Items))
		}
	}
	w.view.Objects = []fyne.CanvasObject{w.body, w.toasts.Object(), w.probe.Object()}
	w.view.Refresh()
	w.composer.prompt.Editor.OnScrollKey = w.chat.ScrollKey
	w.composer.prompt.Editor.OnCopy = w.copySelection
	w.chat.OnSelectStart = w.sidebar.ClearSelection
	w.sidebar.OnSelectStart = w.chat.ClearSelection
	w.composer.prompt.Editor.OnOtherShortcut = w.shell.runShortcut
}

// copySelection is Ctrl+C outside the editor's own text: the selection of
// the sidebar or of the transcript, whichever was made last (starting one
// drops the other).
func (w *Tab) copySelection() bool {
	return w.sidebar.CopySelection() || w.chat.CopySelection()
}

// typedKey takes the keys the window gets with nothing focused: a dialog
// shows, and none of its widgets has the focus (Esc closes it, Enter
// presses its default button), or the transcript scrolls.
func (w *Tab) typedKey(ev *fyne.KeyEvent) {
	if w.modals.key(ev) {
		return
	}
	if ev.Name == fyne.KeyEscape && w.commands.palette.Showing() {
		w.commands.palette.Hide()
		return
	}
	w.chat.ScrollKey(ev.Name, 0)
}

// stop is Esc and the Stop button: it stops a running !command and the
// run, and takes back what waits. With a dialog showing, Esc belongs to
// the dialog, never to the agent.
func (w *Tab) stop() {
	if m := w.modals.top(); m != nil {
		m.Cancel()
		return
	}
	if !w.drawn.Running && w.composer.cancelEdit() {
		return
	}
	if w.controller == nil {
		return
	}
	if w.session.BashRunning() {
		w.controller.AbortBash()
	}
	w.controller.Escape()
}

// actionStop is Stop from the menu and the palette: as Esc, and it says so
// when nothing runs.
func (w *Tab) actionStop() {
	v := w.session.View(&w.drawn)
	if !v.Running && !v.BashRunning && len(v.Waiting) == 0 && len(v.Steering)+len(v.FollowUp) == 0 {
		w.toasts.Show("Nothing is running.", model.NoticeInfo)
		return
	}
	w.stop()
}

func (w *Tab) shortcut(name string) {
	if w.controller == nil {
		return
	}
	switch name {
	case prompt.ShortcutCycleModel:
		w.controller.CycleModel()
	case prompt.ShortcutCycleThinking:
		w.controller.CycleThinking()
	case prompt.ShortcutNewSession:
		w.controller.NewSession()
	case prompt.ShortcutPalette:
		w.commands.actionPalette()
	}
}

// Invalidate implements UI.
func (w *Tab) Invalidate() { w.frames.Invalidate() }

// ConnectFailed implements UI. The banner saying so is drawn from the
// session, which already knows.
func (w *Tab) ConnectFailed(err error) { w.Invalidate() }

// ShowDialog implements UI.
func (w *Tab) ShowDialog(req model.Dialog) {
	w.do(func() {
		if w.closed {
			return
		}
		w.dialogs.Add(req)
		w.shell.tabAsks(w)
	})
}

// CloseDialogs implements UI.
func (w *Tab) CloseDialogs() {
	w.do(func() {
		w.dialogs.CloseAll()
		w.shell.refreshLabels()
	})
}

// SetEditorText implements UI. A draft it replaces can be restored.
func (w *Tab) SetEditorText(text string) { w.do(func() { w.composer.setByExtension(text) }) }

// Notify implements UI: a toast, kept in the history, and a desktop
// notification when the window or the tab is not in front.
func (w *Tab) Notify(n model.Notice) {
	w.do(func() {
		w.toasts.ShowNotice(n)
		if n.Source == "extension_error" {
			w.commands.extErrors = append(w.commands.extErrors, n)
		}
		// Behind another tab, the toast waits unseen: the desktop says it.
		if !w.shell.focused || !w.isCurrent() {
			w.app.SendNotification(fyne.NewNotification(appTitle, n.Text))
		}
	})
}

// Settled implements UI.
func (w *Tab) Settled(stopped bool) {
	w.do(func() {
		w.shell.tabFinished(w, stopped)
		w.panels.followTree()
		if len(w.commands.agentCommands) == 0 {
			w.commands.loadCommands()
		}
	})
}

// Do implements UI.
func (w *Tab) Do(f func()) { w.do(f) }

// RestoreDraft implements UI: the text goes below whatever is being typed.
func (w *Tab) RestoreDraft(text string) { w.do(func() { w.composer.restoreBelow(text) }) }

// GiveBack implements UI: what the agent took with it when it ended goes
// above the draft; the draft itself stays as typed.
func (w *Tab) GiveBack(texts []string) { w.do(func() { w.composer.giveBack(texts) }) }
