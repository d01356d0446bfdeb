package palette

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/prompt"
	"knightcode.ai/desktop/widgets/widgettest"
)

func samplePalette() []model.PaletteItem {
	return []model.PaletteItem{
		{ID: "new", Title: "New session", Detail: "Start over with an empty context", Source: "app", Shortcut: "Ctrl+N"},
		{ID: "sessions", Title: "Open session…", Detail: "Browse saved sessions", Source: "app", Shortcut: "Ctrl+O"},
		{ID: "model", Title: "Cycle model", Detail: "Switch to the next model", Source: "app", Shortcut: "Ctrl+P"},
		{ID: "thinking", Title: "Cycle thinking level", Source: "app", Shortcut: "Shift+Tab"},
		{ID: "compact", Title: "Compact context", Detail: "Summarise the conversation so far to free tokens", Source: "app"},
		{ID: "tree", Title: "Session tree", Detail: "Show branches and fork from an earlier message", Source: "app"},
		{ID: "export", Title: "Export session as HTML", Source: "app"},
		{ID: "ext:lint", Title: "Run linters", Detail: "golangci-lint on changed packages", Source: "extension"},
		{ID: "prompt:review", Title: "review", Detail: "Review the staged diff for bugs", Source: "prompt"},
		{ID: "skill:pdf", Title: "pdf-tools", Detail: "Read and fill PDF forms", Source: "skill"},
	}
}

func sampleSlash() []model.PaletteItem {
	return []model.PaletteItem{
		{ID: "compact", Title: "/compact", Detail: "Compact the context", Source: "app"},
		{ID: "copy", Title: "/copy", Detail: "Copy the last reply", Source: "app"},
		{ID: "model", Title: "/model", Detail: "Choose a model", Source: "app"},
		{ID: "new", Title: "/new", Detail: "Start a new session", Source: "app"},
		{ID: "review", Title: "/review", Detail: "Review the staged diff for bugs", Source: "prompt"},
		{ID: "commit", Title: "/commit-message", Detail: "Write a commit message for the staged changes", Source: "extension"},
		{ID: "skill:changelog", Title: "/skill:changelog", Detail: "Update CHANGELOG.md", Source: "skill"},
	}
}

// backdrop stands in for the window under a pop-up.
func backdrop() (fyne.CanvasObject, *prompt.PromptEditor) {
	chat := widget.NewLabel("The chat would be here.")
	ed := prompt.NewPromptEditor()
	return container.NewBorder(nil, ed, nil, nil, chat), ed
}

func TestPaletteShots(t *testing.T) {
	widgettest.SaveOverlayShots(t, "palette", fyne.NewSize(800, 560), func() fyne.CanvasObject {
		b, _ := backdrop()
		return b
	}, func(c fyne.Canvas) {
		p := NewCommandPalette()
		p.SetItems(samplePalette())
		p.Show(c)
		p.panel.entry.SetText("se")
	})
	// While idle: Stop greyed at the end, the last command run on top.
	widgettest.SaveOverlayShots(t, "palette-idle", fyne.NewSize(800, 420), func() fyne.CanvasObject {
		b, _ := backdrop()
		return b
	}, func(c fyne.Canvas) {
		p := NewCommandPalette()
		p.SetItems(appPalette())
		p.SetRecent([]string{"export"})
		p.Show(c)
	})
	var ed *prompt.PromptEditor
	widgettest.SaveOverlayShots(t, "slash", fyne.NewSize(640, 420), func() fyne.CanvasObject {
		var b fyne.CanvasObject
		b, ed = backdrop()
		return b
	}, func(c fyne.Canvas) {
		s := NewSlashCompletion()
		s.SetCommands(sampleSlash())
		s.SetEditor(ed)
		ed.SetText("/c")
		s.Update(c, ed.Text(), fyne.CurrentApp().Driver().AbsolutePositionForObject(ed))
		s.Move(1)
	})
	// A command the agent refused here, greyed at the end.
	widgettest.SaveOverlayShots(t, "slash-refused", fyne.NewSize(640, 420), func() fyne.CanvasObject {
		var b fyne.CanvasObject
		b, ed = backdrop()
		return b
	}, func(c fyne.Canvas) {
		s := NewSlashCompletion()
		s.SetCommands(append(sampleSlash(), model.PaletteItem{ID: "cmd:llama", Title: "/llama",
			Detail: "Manage llama.cpp router models", Source: "extension", Unavailable: "works only in the agent's terminal UI"}))
		s.SetEditor(ed)
		ed.SetText("/")
		s.Update(c, ed.Text(), fyne.CurrentApp().Driver().AbsolutePositionForObject(ed))
	})
}
