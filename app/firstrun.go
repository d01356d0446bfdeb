package app

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	native "github.com/sqweek/dialog"
	"knightcode.ai/desktop/model"
)

// showFirstRun replaces the chat with a panel that explains what is missing
// and lets the user pick the agent binary.
func (w *Tab) showFirstRun() {
	title := widget.NewLabelWithStyle("No KnightCode agent found", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	explain := widget.NewLabel("KnightCode Desktop is a window for the KnightCode coding agent, a command-line " +
		"program that talks to language models and runs tools in your project. The window starts the agent " +
		"itself, so it needs to know where its executable is.\n\n" +
		"It looked for: the agent chosen in Settings, \"knightcode\" next to this app, and \"knightcode\" " +
		"or \"pi\" (the agent's public twin, npm package @mariozechner/pi-coding-agent) on your PATH.")
	explain.Wrapping = fyne.TextWrapWord
	choose := widget.NewButtonWithIcon("Choose the agent executable…", theme.FolderOpenIcon(), w.chooseAgent)
	choose.Importance = widget.HighImportance
	panel := container.NewVBox(title, explain, container.NewCenter(choose))
	w.firstRun = container.NewCenter(container.NewGridWrap(fyne.NewSize(560, 300), panel))
	w.view.Objects = []fyne.CanvasObject{container.NewBorder(nil, w.status, nil, nil, w.firstRun)}
	w.view.Refresh()
	w.session.SetConn(model.ConnFailed, "no agent")
	w.Invalidate()
}

// chooseAgent asks for the binary with the platform's file dialog, falling
// back to Fyne's where there is none.
func (w *Tab) chooseAgent() {
	w.askNative(native.File().Title("Choose the KnightCode agent").Load, w.useAgent, w.chooseAgentInWindow)
}

func (w *Tab) chooseAgentInWindow() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		r.Close()
		w.useAgent(r.URI().Path())
	}, w.win)
	if home, err := os.UserHomeDir(); err == nil {
		if l, err := storage.ListerForURI(storage.NewFileURI(home)); err == nil {
			d.SetLocation(l)
		}
	}
	w.showFileDialog(d)
}

// useAgent remembers the chosen binary and starts it.
func (w *Tab) useAgent(path string) {
	if !isExecutableFile(path) {
		w.message("Not an executable", path+" cannot be run. Choose the agent's executable file.")
		return
	}
	w.settings.AgentPath = path
	w.settings.Save(w.app.Preferences())
	w.build()
	w.connect()
	w.focusEditor()
}
