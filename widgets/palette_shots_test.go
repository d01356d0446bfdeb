package widgets

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
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

// saveOverlayShots is saveShots for pop-ups: show runs once the window is
// up, to open the pop-up on its canvas.
func saveOverlayShots(t *testing.T, name string, size fyne.Size, build func() fyne.CanvasObject, show func(c fyne.Canvas)) {
	t.Helper()
	dir := os.Getenv("KC_SHOTS")
	if dir == "" {
		return
	}
	for _, v := range []struct {
		name    string
		variant fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		a := test.NewTempApp(t)
		a.Settings().SetTheme(fixedVariantTheme{theme.DefaultTheme(), v.variant})
		w := test.NewTempWindow(t, build())
		w.Resize(size)
		show(w.Canvas())
		f, err := os.Create(filepath.Join(dir, name+"-"+v.name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, w.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// backdrop stands in for the window under a pop-up.
func backdrop() (fyne.CanvasObject, *PromptEditor) {
	chat := widget.NewLabel("The chat would be here.")
	ed := NewPromptEditor()
	return container.NewBorder(nil, ed, nil, nil, chat), ed
}

func TestPaletteShots(t *testing.T) {
	saveOverlayShots(t, "palette", fyne.NewSize(800, 560), func() fyne.CanvasObject {
		b, _ := backdrop()
		return b
	}, func(c fyne.Canvas) {
		p := NewCommandPalette()
		p.SetItems(samplePalette())
		p.Show(c)
		p.panel.entry.SetText("se")
	})
	var ed *PromptEditor
	saveOverlayShots(t, "slash", fyne.NewSize(640, 420), func() fyne.CanvasObject {
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
}
