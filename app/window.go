package app

import (
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/widgets"
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

	session    *Session
	controller *Controller
	frames     *frames
	dialogs    *dialogQueue

	// The last view drawn, so unchanged parts are skipped.
	drawn View

	chat     *widgets.ChatView
	sidebar  *widgets.ToolSidebar
	prompt   *widgets.PromptBar
	models   *widgets.ModelPicker
	thinking *widgets.ThinkingPicker
	status   *widgets.StatusBar
	banner   *widgets.Banner
	name     *widget.Label
	body     *fyne.Container
	firstRun fyne.CanvasObject
}

// NewWindow builds the main window. It starts the agent when one is found,
// else shows the first-run panel.
func NewWindow(a fyne.App, flags Flags) *Window {
	w := &Window{app: a, flags: flags, settings: LoadSettings(a.Preferences()), session: NewSession()}
	w.win = a.NewWindow(appTitle)
	w.frames = newFrames(w.draw)
	w.dialogs = &dialogQueue{parent: w.win, respond: func(id string, ans rpcconn.UIAnswer) {
		if w.controller != nil {
			w.controller.Respond(id, ans)
		}
	}}
	w.build()
	w.win.Resize(fyne.NewSize(1200, 800))
	w.win.SetCloseIntercept(func() { w.Quit() })
	w.connect()
	return w
}

// Window is the Fyne window.
func (w *Window) Window() fyne.Window { return w.win }

func (w *Window) build() {
	w.chat = widgets.NewChatView()
	w.chat.OnToolChipTapped = func(id string) { w.sidebar.Select(id) }
	w.sidebar = widgets.NewToolSidebar()
	w.sidebar.OnShowAll = w.openPath
	w.models = widgets.NewModelPicker()
	w.models.OnChange = func(m widgets.ModelChoice) { w.controller.SelectModel(m.Provider, m.ID) }
	w.thinking = widgets.NewThinkingPicker()
	w.thinking.OnChange = func(level string) { w.controller.SelectThinking(level) }
	w.status = widgets.NewStatusBar()
	w.banner = widgets.NewBanner()
	w.banner.OnRestart = w.restart
	w.name = widget.NewLabel("")
	w.name.Truncation = fyne.TextTruncateEllipsis
	w.prompt = widgets.NewPromptBar()
	w.prompt.OnSubmit = w.submit
	// Esc and the Stop button both clear the queue (back into the editor)
	// and abort.
	w.prompt.OnStop = w.stop
	w.prompt.Editor.OnEscape = w.stop
	w.prompt.Editor.OnShortcut = w.shortcut
	if trace.enabled() {
		w.prompt.Editor.OnChanged = func(text string) { trace.Mark("editor", len(text)) }
	}

	settingsButton := widget.NewButtonWithIcon("", settingsIcon(), w.showSettings)
	top := container.NewBorder(nil, nil, nil, container.NewHBox(w.models, w.thinking, settingsButton), w.name)
	split := container.NewHSplit(container.NewBorder(w.banner, nil, nil, nil, w.chat), w.sidebar)
	split.Offset = 0.68
	bottom := container.NewVBox(w.prompt, w.status)
	w.body = container.NewBorder(top, bottom, nil, nil, split)
	w.win.SetContent(w.body)
	w.win.Canvas().Focus(w.prompt.Editor)
}

func (w *Window) stop() {
	if w.controller != nil {
		w.controller.Escape()
	}
}

// restart starts a fresh agent after an exit or a failed start; the
// transcript and the draft stay.
func (w *Window) restart() {
	w.banner.Hide()
	if w.controller == nil {
		w.connect()
		return
	}
	w.controller.Restart()
}

// connect starts the agent, or asks for one.
func (w *Window) connect() {
	found, ok := FindAgent(w.flags.Agent, w.settings.AgentPath)
	if !ok {
		w.showFirstRun()
		return
	}
	dir := w.flags.Dir
	if dir == "" {
		dir = w.settings.WorkDir
	}
	args := append(append([]string(nil), w.settings.AgentArgs...), w.flags.AgentArgs...)
	w.controller = NewController(w.session, w, rpcconn.Options{Path: found.Path, Args: args, Dir: dir})
	w.controller.Start()
}

func (w *Window) submit(text string, mode widgets.SubmitMode) {
	text = strings.TrimRight(text, "\n")
	if strings.TrimSpace(text) == "" || w.controller == nil {
		return
	}
	// Cleared now for a snappy editor; the controller hands the text back
	// if sending fails, so nothing typed is lost.
	w.prompt.Editor.Clear()
	w.controller.Send(text, nil, mode == widgets.SubmitFollowUp)
	w.chat.ScrollToBottom()
	w.win.Canvas().Focus(w.prompt.Editor)
}

func (w *Window) shortcut(name string) {
	if w.controller == nil {
		return
	}
	switch name {
	case widgets.ShortcutCycleModel:
		w.controller.CycleModel()
	case widgets.ShortcutCycleThinking:
		w.controller.CycleThinking()
	case widgets.ShortcutNewSession:
		w.controller.NewSession()
	}
}

// Quit shuts the agent down cleanly and closes the window.
func (w *Window) Quit() {
	w.frames.Stop()
	if w.controller != nil {
		// Off the UI goroutine: shutting down waits for the agent, and for
		// goroutines that may be waiting for the UI.
		c := w.controller
		go func() {
			c.Shutdown()
			fyne.Do(w.app.Quit)
		}()
		return
	}
	w.app.Quit()
}

// Invalidate implements UI.
func (w *Window) Invalidate() { w.frames.Invalidate() }

// ConnectFailed implements UI.
func (w *Window) ConnectFailed(err error) {
	fyne.Do(func() {
		w.banner.SetMessage("The agent could not be started", err.Error(), widgets.NoticeError)
		w.banner.Show()
	})
}

// ShowDialog implements UI.
func (w *Window) ShowDialog(req *rpcconn.ExtensionUIRequest) {
	fyne.Do(func() { w.dialogs.Add(req) })
}

// CloseDialogs implements UI.
func (w *Window) CloseDialogs() { fyne.Do(w.dialogs.CloseAll) }

// SetEditorText implements UI.
func (w *Window) SetEditorText(text string) {
	fyne.Do(func() { w.prompt.Editor.SetText(text) })
}

// RestoreDraft implements UI: the text goes below whatever is being typed.
func (w *Window) RestoreDraft(text string) {
	fyne.Do(func() {
		e := w.prompt.Editor
		if cur := strings.TrimRight(e.Text(), "\n"); cur != "" {
			text = cur + "\n\n" + text
		}
		e.SetText(text)
		e.CursorRow = len(strings.Split(text, "\n")) - 1
		e.CursorColumn = len(text) - strings.LastIndex(text, "\n") - 1
		e.Refresh()
	})
}

func (w *Window) openPath(path string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return
	}
	if _, err := os.Stat(abs); err != nil {
		w.session.Notice(widgets.NoticeWarning, "Cannot open "+abs+": "+err.Error())
		w.Invalidate()
		return
	}
	u, err := storageURL(abs)
	if err == nil {
		err = w.app.OpenURL(u)
	}
	if err != nil {
		w.session.Notice(widgets.NoticeWarning, "Cannot open "+abs+": "+err.Error())
		w.Invalidate()
	}
}

// shutdown makes sure the agent is gone once the app loop has ended,
// whichever way it ended.
func (w *Window) shutdown() {
	w.frames.Stop()
	if w.controller != nil {
		w.controller.Shutdown()
	}
}
