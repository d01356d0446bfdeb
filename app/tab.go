package app

import (
	"strings"

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
	shell    *Window
	app      fyne.App
	win      fyne.Window
	settings Settings
	flags    Flags
	// view is what the window shows of the tab: the session, or the
	// first-run panel.
	view *fyne.Container
	// title is the window title while this tab is in front.
	title string

	session    *model.Session
	controller *model.Controller
	frames     *uiloop.Frames
	dialogs    *dialogQueue
	// modals are the open dialogs, for the keyboard.
	modals *modalStack
	probe  *uiloop.PaintProbe

	// The last view drawn, so unchanged parts are skipped.
	drawn model.View

	chat     *chat.ChatView
	sidebar  *tools.ToolSidebar
	prompt   *prompt.PromptBar
	models   *palette.ModelPicker
	thinking *palette.ThinkingPicker
	status   *status.StatusBar
	banner   *status.Banner
	// editing is the earlier prompt being edited to send again, or nil.
	editing *editingPrompt
	find    *chat.FindBar
	name    *widget.Label
	// firstPrompt is the first prompt's words, which name a session
	// that has no name.
	firstPrompt string
	// folder names the working folder beside the session's name.
	folder *widget.Label
	// welcome is the first screen of an empty conversation, recent what
	// it knows of the folder's sessions.
	welcome *chat.Welcome
	recent  recentSessions
	// ready is set once the first agent has loaded the session.
	ready bool
	// messages searches the sessions' messages for the browser;
	// findOnOpen is a browser result being opened, to find in it.
	messages   messageSearch
	findOnOpen findTarget
	body       *fyne.Container
	// top is the header; split the conversation beside the sidebar.
	top   fyne.CanvasObject
	split fyne.CanvasObject
	// agentSetup is the panel of a tab without an agent; modelSetup
	// connects a model, on the first screen and in Settings.
	agentSetup *agentSetup
	modelSetup *modelSetup
	// trust asks about the folder's own agent files; mcp is the MCP
	// panel last opened.
	trust *folderTrust
	mcp   *mcpPanel

	toasts       *status.ToastLayer
	extErrors    []model.Notice
	above, below *prompt.ExtensionBlocks
	draftRestore *prompt.DraftRestore
	attachStrip  *prompt.AttachmentStrip
	images       []*draftImage
	nextImage    int
	// draft keeps what the tab has not sent, and brings it back.
	draft    *tabDraft
	palette  *palette.CommandPalette
	slash    *palette.SlashCompletion
	commands []model.PaletteItem
	tree     *openTree
	retry    *retryStrip
	// mark is what the tab's label says of its state, as last drawn;
	// unread is set when it finished (stopped, when it was stopped) while
	// in the background.
	mark    tabMark
	unread  bool
	stopped bool
	// closed is set once the tab has left the window.
	closed bool
	// bg runs the window's background work; quitting stops it first.
	bg *uiloop.Workers
	// started is how the agent was last started, for Settings.
	started startInfo
	// referenceNote is the draft as a dropped file's reference left it,
	// while the note offering to undo that shows.
	referenceNote string
	// extensionText is the text an extension last put in the editor
	// (set_editor_text): replaced again untouched, it is not offered back.
	extensionText string
	// readOnly are the windows showing a session read-only.
	readOnly []fyne.Window
	// stopBashTick stops the clock of running !commands.
	stopBashTick func()
}

// newTab makes a tab of shell; start builds it.
func newTab(shell *Window, flags Flags) *Tab {
	a := shell.app
	w := &Tab{shell: shell, app: a, win: shell.win, flags: flags, settings: LoadSettings(a.Preferences()),
		session: model.NewSession(), bg: uiloop.NewWorkers(), view: container.NewStack()}
	w.messages.w = w
	w.draft = newTabDraft(w, shell.drafts)
	w.trust = newFolderTrust(w)
	w.frames = uiloop.NewFrames(w.drawPaced)
	w.modals = &modalStack{}
	w.dialogs = &dialogQueue{parent: w.win, do: w.do, stack: w.modals,
		respond: func(id string, ans model.Answer) {
			if w.controller != nil {
				w.controller.Respond(id, ans)
			}
		}}
	w.dialogs.done = func() {
		if w.modals.top() == nil {
			w.focusEditor()
		}
	}
	// Once the last dialog closed, the keyboard goes back to the editor.
	w.modals.empty = w.focusEditor
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
	if w.palette.Showing() {
		w.palette.Hide()
	}
	w.slash.Hide()
}

// isCurrent reports whether the tab is the one in front.
func (w *Tab) isCurrent() bool { return w.shell.isCurrent(w) }

// focus gives obj the keyboard, if this tab is in front: a tab behind
// must never take it from the one being typed in.
func (w *Tab) focus(obj fyne.Focusable) {
	if w.isCurrent() {
		w.win.Canvas().Focus(obj)
	}
}

func (w *Tab) focusEditor() { w.focus(w.prompt.Editor) }

func (w *Tab) build() {
	w.chat = chat.NewChatView()
	w.chat.OnToolChipTapped = func(id string) { w.sidebar.Select(id) }
	w.chat.SetOnEditPrompt(w.editPrompt)
	// A prompt the agent has not taken: back into the editor, or out
	// again to a restarted agent, once.
	w.chat.SetOnStuckPrompt(func(string) {
		if w.controller != nil {
			w.controller.TakeBack()
		}
	}, func(string) { w.restart() })
	w.sidebar = tools.NewToolSidebar()
	w.sidebar.OnShowAll = w.openAgentFile
	w.models = palette.NewModelPicker()
	// After a pick the keyboard goes back to the editor: a picker left
	// focused would take the next keystrokes.
	w.models.OnChange = func(m model.ModelChoice) {
		w.controller.SelectModel(m.Provider, m.ID)
		w.focusEditor()
	}
	w.thinking = palette.NewThinkingPicker()
	w.thinking.OnChange = func(level string) {
		w.controller.SelectThinking(level)
		w.focusEditor()
	}
	w.status = status.NewStatusBar()
	w.banner = status.NewBanner()
	w.banner.OnRestart = w.restart
	w.name = widget.NewLabel("")
	w.name.Truncation = fyne.TextTruncateEllipsis
	w.folder = widget.NewLabel("")
	w.folder.Importance = widget.LowImportance
	w.welcome = chat.NewWelcome()
	w.welcome.OnOpen = w.openRecent
	w.welcome.OnBrowse = w.actionBrowse
	if w.flags.SSH == "" {
		w.welcome.OnChooseFolder = w.chooseFolder
	}
	w.welcome.OnChooseHost = w.actionRemoteTab
	w.welcome.Hide()
	w.prompt = prompt.NewPromptBar()
	w.prompt.OnSubmit = w.submit
	// Esc and the Stop button both clear the queue (back into the editor)
	// and abort.
	w.prompt.OnStop = w.stop
	w.prompt.Editor.OnEscape = w.stop
	w.prompt.Editor.OnShortcut = w.shortcut
	w.prompt.Editor.OnPaste = w.pasteImage
	w.prompt.Editor.SetCursorBlink(w.settings.BlinkCursor)
	// The idle timer's work goes through w.do (uiloop.Do), which the window
	// tests serialize with their own UI actions.
	w.prompt.Editor.RunOnUI = w.do
	w.toasts = status.NewToastLayer()
	w.above, w.below = prompt.NewExtensionBlocks(), prompt.NewExtensionBlocks()
	w.draftRestore = prompt.NewDraftRestore()
	w.draftRestore.OnRestore = func() { w.prompt.Editor.SetTextCursorAtEnd(w.draftRestore.Previous()) }
	w.retry = newRetryStrip(w.do, w.actionAbortRetry)
	w.attachStrip = prompt.NewAttachmentStrip()
	w.attachStrip.OnRemove = w.removeImage
	w.attachStrip.OnPreview = w.previewImage
	w.palette = palette.NewCommandPalette()
	w.slash = palette.NewSlashCompletion()
	w.slash.SetEditor(w.prompt.Editor)
	w.slash.OnAccept = w.prompt.Editor.SetTextCursorAtEnd
	w.prompt.Editor.OnChanged = w.editorChanged

	settingsButton := widget.NewButtonWithIcon("", settingsIcon(), w.showSettings)
	attachButton := widget.NewButtonWithIcon("", attachIcon(), w.actionAttach)
	w.top = container.NewBorder(nil, nil, nil, container.NewHBox(w.folder, w.models, w.thinking, attachButton, settingsButton), w.name)
	w.find = w.newFindBar()
	w.modelSetup = newModelSetup(w)
	split := container.NewHSplit(container.NewBorder(container.NewVBox(w.banner, w.find), nil, nil, nil,
		container.NewStack(w.chat, w.welcome, w.modelSetup.object())), w.sidebar)
	split.Offset = 0.68
	w.split = split
	bottom := container.NewVBox(w.retry.box, w.above, w.draftRestore, w.attachStrip, w.prompt, w.below, w.status)
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
	w.prompt.Editor.OnScrollKey = w.chat.ScrollKey
	w.prompt.Editor.OnCopy = w.copySelection
	w.chat.OnSelectStart = w.sidebar.ClearSelection
	w.sidebar.OnSelectStart = w.chat.ClearSelection
	w.prompt.Editor.OnOtherShortcut = w.shell.runShortcut
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
	if ev.Name == fyne.KeyEscape && w.palette.Showing() {
		w.palette.Hide()
		return
	}
	w.chat.ScrollKey(ev.Name, 0)
}

// editorChanged follows the draft for the "/" completion.
func (w *Tab) editorChanged(text string) {
	if trace.Enabled() {
		trace.Mark("editor", len(text))
	}
	// The note offering to undo a dropped file's reference goes once the
	// draft changes otherwise: its Undo would take back that change.
	if w.referenceNote != "" && text != w.referenceNote {
		w.referenceNote = ""
		w.draftRestore.HideNote() // a draft restore behind it comes back
	}
	w.draft.edited(text)
	w.draft.keep()
	if !strings.HasPrefix(text, "/") && !w.slash.Visible() {
		return
	}
	// A draft set behind (handed back, or by an extension) pops nothing
	// over the tab in front.
	if !w.isCurrent() {
		w.slash.Hide()
		return
	}
	c := w.win.Canvas()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(w.prompt.Editor)
	w.slash.Update(c, text, pos)
}

// stop is Esc and the Stop button: it stops a running !command and the
// run, and takes back what waits. With a dialog showing, Esc belongs to
// the dialog, never to the agent.
func (w *Tab) stop() {
	if m := w.modals.top(); m != nil {
		m.Cancel()
		return
	}
	if !w.drawn.Running && w.cancelEdit() {
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

func (w *Tab) submit(text string, mode prompt.SubmitMode) {
	if w.slash.Visible() {
		if t, ok := w.slash.Accept(); ok {
			w.slash.OnAccept(t)
			return
		}
	}
	text = strings.TrimRight(text, "\n")
	ids, images, loading := w.readyImages()
	if (strings.TrimSpace(text) == "" && len(images) == 0) || w.controller == nil {
		return
	}
	if loading {
		w.toasts.Show("Images are still loading; send again in a moment.", model.NoticeInfo)
		return
	}
	if mode == prompt.SubmitPrompt && w.editing != nil && !strings.HasPrefix(text, "!") {
		w.sendEdit(text, images, func() {
			w.do(func() {
				for _, id := range ids {
					w.removeImage(id)
				}
			})
		})
		return
	}
	if strings.HasPrefix(text, "!") && len(images) == 0 {
		w.prompt.Editor.Clear()
		w.controller.RunBash(strings.TrimSpace(text[1:]))
		w.chat.ScrollToBottom()
		return
	}
	send := func() {
		// The editor is cleared now for a snappy feel; the controller hands
		// the text back if sending fails. Images go once the agent has them.
		w.referenceNote = ""
		w.prompt.Editor.Clear()
		w.draftRestore.Hide()
		w.controller.Send(text, images, mode == prompt.SubmitFollowUp, func() {
			w.do(func() {
				for _, id := range ids {
					w.removeImage(id)
				}
			})
		})
		w.chat.ScrollToBottom()
		w.focusEditor()
	}
	if len(images) > 0 && w.drawn.ModelID != "" && !w.drawn.ModelAccepts {
		w.confirmImagesForTextModel(send)
		return
	}
	send()
}

// confirmImagesForTextModel warns before images go to a model that does
// not read them: send anyway, or pick another model first (the default).
func (w *Tab) confirmImagesForTextModel(send func()) {
	w.ask("This model does not read images", w.drawn.ModelName+" does not take images as input; the agent may drop them or fail.\nSend anyway, or switch to a model that reads images?",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Send anyway", run: send},
		dialogAction{label: "Switch model", isDefault: true, run: w.models.Open})
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
		w.actionPalette()
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
func (w *Tab) SetEditorText(text string) {
	w.do(func() {
		w.referenceNote = "" // the line now offers the old draft back
		// What the extension itself put there, untouched, is not the
		// user's draft: the line keeps offering the user's (ShowFor keeps
		// the first while it is offered).
		old := w.prompt.Editor.Text()
		if strings.TrimSpace(old) != "" && old != text && old != w.extensionText {
			w.draftRestore.ShowFor(old)
		}
		w.extensionText = text
		w.prompt.Editor.SetTextCursorAtEnd(text)
		w.focusEditor()
	})
}

// Notify implements UI: a toast, kept in the history, and a desktop
// notification when the window or the tab is not in front.
func (w *Tab) Notify(n model.Notice) {
	w.do(func() {
		w.toasts.ShowNotice(n)
		if n.Source == "extension_error" {
			w.extErrors = append(w.extErrors, n)
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
		w.followTree()
		if len(w.commands) == 0 {
			w.loadCommands()
		}
	})
}

// Do implements UI.
func (w *Tab) Do(f func()) { w.do(f) }

// RestoreDraft implements UI: the text goes below whatever is being typed.
func (w *Tab) RestoreDraft(text string) {
	w.do(func() {
		e := w.prompt.Editor
		if cur := strings.TrimRight(e.Text(), "\n"); cur != "" {
			text = cur + "\n\n" + text
		}
		e.SetTextCursorAtEnd(text)
	})
}

// GiveBack implements UI: what the agent took with it when it ended goes
// above the draft (it was written first), a blank line between texts; the
// draft itself stays as typed.
func (w *Tab) GiveBack(texts []string) {
	w.do(func() {
		e := w.prompt.Editor
		text := strings.Join(texts, "\n\n")
		if cur := strings.TrimLeft(e.Text(), "\n"); strings.TrimSpace(cur) != "" {
			text += "\n\n" + cur
		}
		e.SetTextCursorAtEnd(text)
	})
}
