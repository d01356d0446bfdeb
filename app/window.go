package app

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/widgets/chat"
	"knightcode.ai/desktop/widgets/palette"
	"knightcode.ai/desktop/widgets/prompt"
	"knightcode.ai/desktop/widgets/status"
	"knightcode.ai/desktop/widgets/tools"
)

// appTitle keeps the window recognisable whatever else the title says.
const appTitle = "KnightCode"

// Window is the main window: top bar, chat, tool sidebar, prompt bar and
// status bar, redrawn from Session views at most once per frame.
type Window struct {
	app      fyne.App
	win      fyne.Window
	settings Settings
	flags    Flags

	session    *model.Session
	controller *model.Controller
	frames     *frames
	dialogs    *dialogQueue
	// modals are the open dialogs, for the keyboard.
	modals *modalStack
	probe  *paintProbe

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
	firstRun   fyne.CanvasObject

	toasts       *status.ToastLayer
	extErrors    []model.Notice
	above, below *prompt.ExtensionBlocks
	draftRestore *prompt.DraftRestore
	attachStrip  *prompt.AttachmentStrip
	images       []*draftImage
	nextImage    int
	palette      *palette.CommandPalette
	slash        *palette.SlashCompletion
	commands     []model.PaletteItem
	tree         *openTree
	retry        *retryStrip
	// focused tracks whether the window is in front, for desktop
	// notifications.
	focused   bool
	quitOnce  sync.Once
	loopEnded atomic.Bool
	// bg runs the window's background work; quitting stops it first.
	bg *workers
	// started is how the agent was last started, for Settings.
	started startInfo
	// referenceNote is the draft as a dropped file's reference left it,
	// while the note offering to undo that shows.
	referenceNote string
	// readOnly are the windows showing a session read-only.
	readOnly []fyne.Window
	// stopBashTick stops the clock of running !commands.
	stopBashTick func()
}

// NewWindow builds the main window. It starts the agent when one is found,
// else shows the first-run panel.
func NewWindow(a fyne.App, flags Flags) *Window {
	w := &Window{app: a, flags: flags, settings: LoadSettings(a.Preferences()), session: model.NewSession(), bg: newWorkers()}
	w.messages.w = w
	w.win = a.NewWindow(appTitle)
	w.frames = newFrames(w.drawPaced)
	w.modals = &modalStack{}
	w.dialogs = &dialogQueue{parent: w.win, do: w.do, stack: w.modals, respond: func(id string, ans rpcconn.UIAnswer) {
		if w.controller != nil {
			w.controller.Respond(id, ans)
		}
	}}
	w.build()
	w.dialogs.done = func() { w.win.Canvas().Focus(w.prompt.Editor) }
	// Once the last dialog closed, the keyboard goes back to the editor.
	w.modals.empty = func() { w.win.Canvas().Focus(w.prompt.Editor) }
	w.win.Resize(fyne.NewSize(1200, 800))
	w.win.SetCloseIntercept(func() { w.Quit() })
	w.win.SetOnDropped(w.onDropped)
	w.focused = true
	a.Lifecycle().SetOnEnteredForeground(func() { w.focused = true })
	a.Lifecycle().SetOnExitedForeground(func() { w.focused = false })
	w.connect()
	return w
}

// Window is the Fyne window.
func (w *Window) Window() fyne.Window { return w.win }

func (w *Window) build() {
	w.chat = chat.NewChatView()
	w.chat.OnToolChipTapped = func(id string) { w.sidebar.Select(id) }
	w.chat.SetOnEditPrompt(w.editPrompt)
	w.sidebar = tools.NewToolSidebar()
	w.sidebar.OnShowAll = w.openAgentFile
	w.models = palette.NewModelPicker()
	// After a pick the keyboard goes back to the editor: a picker left
	// focused would take the next keystrokes.
	w.models.OnChange = func(m model.ModelChoice) {
		w.controller.SelectModel(m.Provider, m.ID)
		w.win.Canvas().Focus(w.prompt.Editor)
	}
	w.thinking = palette.NewThinkingPicker()
	w.thinking.OnChange = func(level string) {
		w.controller.SelectThinking(level)
		w.win.Canvas().Focus(w.prompt.Editor)
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
	// The idle timer's work goes through w.do (uiDo), which the window
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
	top := container.NewBorder(nil, nil, nil, container.NewHBox(w.folder, w.models, w.thinking, attachButton, settingsButton), w.name)
	w.find = w.newFindBar()
	split := container.NewHSplit(container.NewBorder(container.NewVBox(w.banner, w.find), nil, nil, nil, container.NewStack(w.chat, w.welcome)), w.sidebar)
	split.Offset = 0.68
	bottom := container.NewVBox(w.retry.box, w.above, w.draftRestore, w.attachStrip, w.prompt, w.below, w.status)
	w.body = container.NewBorder(top, bottom, nil, nil, split)
	w.probe = newPaintProbe()
	w.probe.painted = func() {
		if trace.Enabled() {
			trace.Mark("painted", len(w.drawn.Items))
		}
	}
	w.win.SetContent(container.NewStack(w.body, w.toasts.Object(), w.probe.object))
	// Keys with nothing focused: a dialog shows, and none of its widgets
	// has the focus. Esc closes it, Enter presses its default button.
	w.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if w.modals.key(ev) {
			return
		}
		if ev.Name == fyne.KeyEscape && w.palette.Showing() {
			w.palette.Hide()
			return
		}
		w.chat.ScrollKey(ev.Name, 0)
	})
	w.prompt.Editor.OnScrollKey = w.chat.ScrollKey
	w.prompt.Editor.OnCopy = w.chat.CopySelection
	w.win.Canvas().AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) { w.chat.CopySelection() })
	for _, key := range []fyne.KeyName{fyne.KeyHome, fyne.KeyEnd} {
		w.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault},
			func(s fyne.Shortcut) {
				w.chat.ScrollKey(s.(*desktop.CustomShortcut).KeyName, fyne.KeyModifierShortcutDefault)
			})
	}
	menu := w.buildMenu()
	w.win.SetMainMenu(menu)
	w.bindShortcuts(menu)
	w.win.Canvas().Focus(w.prompt.Editor)
}

// editorChanged follows the draft for the "/" completion.
func (w *Window) editorChanged(text string) {
	if trace.Enabled() {
		trace.Mark("editor", len(text))
	}
	// The note offering to undo a dropped file's reference goes once the
	// draft changes otherwise: its Undo would take back that change.
	if w.referenceNote != "" && text != w.referenceNote {
		w.referenceNote = ""
		w.draftRestore.Hide()
	}
	if !strings.HasPrefix(text, "/") && !w.slash.Visible() {
		return
	}
	c := w.win.Canvas()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(w.prompt.Editor)
	w.slash.Update(c, text, pos)
}

// stop is Esc and the Stop button: it stops a running !command and the
// run, and takes back what waits. With a dialog showing, Esc belongs to
// the dialog, never to the agent.
func (w *Window) stop() {
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
func (w *Window) actionStop() {
	v := w.session.View(&w.drawn)
	if !v.Running && !v.BashRunning && len(v.Waiting) == 0 && len(v.Steering)+len(v.FollowUp) == 0 {
		w.toasts.Show("Nothing is running.", model.NoticeInfo)
		return
	}
	w.stop()
}

func (w *Window) submit(text string, mode prompt.SubmitMode) {
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
		w.win.Canvas().Focus(w.prompt.Editor)
	}
	if len(images) > 0 && w.drawn.ModelID != "" && !w.drawn.ModelAccepts {
		w.confirmImagesForTextModel(send)
		return
	}
	send()
}

// confirmImagesForTextModel warns before images go to a model that does
// not read them: send anyway, or pick another model first (the default).
func (w *Window) confirmImagesForTextModel(send func()) {
	w.ask("This model does not read images", w.drawn.ModelName+" does not take images as input; the agent may drop them or fail.\nSend anyway, or switch to a model that reads images?",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Send anyway", run: send},
		dialogAction{label: "Switch model", isDefault: true, run: w.models.Open})
}

func (w *Window) shortcut(name string) {
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
func (w *Window) Invalidate() { w.frames.Invalidate() }

// ConnectFailed implements UI. The banner saying so is drawn from the
// session, which already knows.
func (w *Window) ConnectFailed(err error) { w.Invalidate() }

// ShowDialog implements UI.
func (w *Window) ShowDialog(req *rpcconn.ExtensionUIRequest) {
	w.do(func() { w.dialogs.Add(req) })
}

// CloseDialogs implements UI.
func (w *Window) CloseDialogs() { w.do(w.dialogs.CloseAll) }

// SetEditorText implements UI. A draft it replaces can be restored.
func (w *Window) SetEditorText(text string) {
	w.do(func() {
		w.referenceNote = "" // the line now offers the old draft back
		if old := w.prompt.Editor.Text(); strings.TrimSpace(old) != "" && old != text {
			w.draftRestore.ShowFor(old)
		}
		w.prompt.Editor.SetTextCursorAtEnd(text)
		w.win.Canvas().Focus(w.prompt.Editor)
	})
}

// Notify implements UI: a toast, kept in the history, and a desktop
// notification when the window is not in front.
func (w *Window) Notify(n model.Notice) {
	w.do(func() {
		w.toasts.ShowNotice(n)
		if n.Source == "extension_error" {
			w.extErrors = append(w.extErrors, n)
		}
		if !w.focused {
			w.app.SendNotification(fyne.NewNotification(appTitle, n.Text))
		}
	})
}

// Settled implements UI.
func (w *Window) Settled() {
	w.do(func() {
		w.followTree()
		if len(w.commands) == 0 {
			w.loadCommands()
		}
	})
}

// Do implements UI.
func (w *Window) Do(f func()) { w.do(f) }

// RestoreDraft implements UI: the text goes below whatever is being typed.
func (w *Window) RestoreDraft(text string) {
	w.do(func() {
		e := w.prompt.Editor
		if cur := strings.TrimRight(e.Text(), "\n"); cur != "" {
			text = cur + "\n\n" + text
		}
		e.SetTextCursorAtEnd(text)
	})
}

func (w *Window) openPath(path string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return
	}
	if _, err := os.Stat(abs); err != nil {
		w.session.Notice(model.NoticeWarning, "Cannot open "+abs+": "+err.Error())
		w.Invalidate()
		return
	}
	u, err := storageURL(abs)
	if err == nil {
		err = w.app.OpenURL(u)
	}
	if err != nil {
		w.session.Notice(model.NoticeWarning, "Cannot open "+abs+": "+err.Error())
		w.Invalidate()
	}
}
