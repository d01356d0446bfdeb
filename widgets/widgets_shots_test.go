package widgets

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"knightcode.ai/desktop/model"
)

func TestWidgetShots(t *testing.T) {
	saveShots(t, "promptbar", fyne.NewSize(640, 260), func() fyne.CanvasObject {
		idle := NewPromptBar()
		idle.Editor.SetText("Refactor the sidebar so cards recycle\nand keep their scroll offset")
		busy := NewPromptBar()
		busy.SetStreaming(true)
		busy.SetQueue([]string{"use the existing helper instead"}, []string{"then run go vet and fix what it finds, including the long line warnings in widgets and app", "commit"})
		return container.NewVBox(idle, busy)
	})
	saveShots(t, "pickers", fyne.NewSize(640, 120), func() fyne.CanvasObject {
		mp := NewModelPicker()
		mp.SetModels([]model.ModelChoice{{Provider: "anthropic", ID: "claude-sonnet-4", Name: "Claude Sonnet 4", Reasoning: true, Images: true}, {Provider: "openai", ID: "gpt-4o-mini", Name: "GPT-4o mini", Images: true}})
		mp.SetCurrent("anthropic", "claude-sonnet-4")
		tp := NewThinkingPicker()
		tp.SetLevels([]string{"off", "low", "medium", "high"})
		tp.SetCurrent("medium")
		off := NewThinkingPicker()
		off.SetLevels([]string{"off"})
		off.SetCurrent("off")
		return container.NewVBox(container.NewHBox(mp, tp), container.NewHBox(off))
	})
	saveShots(t, "statusbar", fyne.NewSize(900, 80), func() fyne.CanvasObject {
		a := NewStatusBar()
		a.SetStatus(model.Status{Connection: "Connected", Connected: true, Running: true, TokensIn: 12345, TokensOut: 4567, Cost: 0.0123,
			ContextPercent: 6.15, ContextTokens: 12300, ContextWindow: 200000, Activity: "Retrying in 4s (2/3)",
			Extension: map[string]string{"b-lint": "lint: ok", "a-git": "main ↑2"}})
		b := NewStatusBar()
		b.SetStatus(model.Status{Connection: "Exited (code 3)", Exited: true, ContextPercent: -1})
		return container.NewVBox(a, b)
	})
	saveShots(t, "banner", fyne.NewSize(640, 260), func() fyne.CanvasObject {
		b := NewBanner()
		b.OnRestart = func() {}
		var tail strings.Builder
		for i := 0; i < 12; i++ {
			tail.WriteString("Error: something failed at step \t" + strings.Repeat("x", i) + "\n")
		}
		tail.WriteString("panic: runtime error: index out of range [3] with length 3")
		b.SetMessage("KnightCode agent exited — exit code 3", tail.String(), model.NoticeError)
		b.Show()
		w := NewBanner()
		w.SetMessage("KnightCode agent is not responding", "", model.NoticeWarning)
		w.Show()
		return container.NewVBox(b, w)
	})
}
