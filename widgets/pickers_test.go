package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

var testModels = []model.ModelChoice{
	{Provider: "anthropic", ID: "claude-sonnet-4", Name: "Claude Sonnet 4", Reasoning: true, Images: true},
	{Provider: "openai", ID: "gpt-4o-mini", Name: "GPT-4o mini", Images: true},
	{Provider: "local", ID: "qwen-coder"},
}

func TestModelPicker(t *testing.T) {
	test.NewTempApp(t)
	p := NewModelPicker()
	var changes []model.ModelChoice
	p.OnChange = func(m model.ModelChoice) { changes = append(changes, m) }
	w := test.NewTempWindow(t, container.NewVBox(p))
	w.Resize(fyne.NewSize(420, 200))

	p.SetModels(testModels)
	p.SetCurrent("anthropic", "claude-sonnet-4")
	p.SetCurrent("openai", "gpt-4o-mini")
	if len(changes) != 0 {
		t.Fatalf("programmatic changes fired OnChange: %+v", changes)
	}
	if p.sel.Selected != "GPT-4o mini · openai · images" {
		t.Fatalf("shown %q", p.sel.Selected)
	}

	// The user opens the list and picks the first model.
	test.Tap(p.sel)
	test.AssertRendersToMarkup(t, "pickers/model_open.xml", w.Canvas())
	test.TapCanvas(w.Canvas(), fyne.NewPos(40, 60))
	if len(changes) != 1 || changes[0] != testModels[0] {
		t.Fatalf("user pick gave %+v", changes)
	}

	// Picking what is shown again is no change.
	p.picked(p.sel.Selected)
	if len(changes) != 1 {
		t.Fatal("re-picking the current model fired OnChange")
	}

	// A model the list does not know is still shown, by its id.
	p.SetCurrent("custom", "my-model")
	if p.sel.Selected != "my-model · custom" || len(changes) != 1 {
		t.Fatalf("unknown model shown as %q", p.sel.Selected)
	}
}

func TestModelLabelsAreUnique(t *testing.T) {
	twins := []model.ModelChoice{
		{Provider: "openrouter", ID: "a/x", Name: "X"},
		{Provider: "openrouter", ID: "b/x", Name: "X"},
	}
	if a, b := modelLabel(twins[0], twins), modelLabel(twins[1], twins); a == b {
		t.Fatalf("two models share the label %q", a)
	}
}

func TestThinkingPicker(t *testing.T) {
	test.NewTempApp(t)
	p := NewThinkingPicker()
	var changes []string
	p.OnChange = func(l string) { changes = append(changes, l) }
	w := test.NewTempWindow(t, container.NewVBox(p))
	w.Resize(fyne.NewSize(240, 80))

	p.SetLevels([]string{"off"})
	p.SetCurrent("off")
	if !p.Disabled() {
		t.Fatal("picker enabled with only \"off\"")
	}
	test.AssertRendersToMarkup(t, "pickers/thinking_off_only.xml", w.Canvas())

	p.SetLevels([]string{"off", "low", "medium", "high"})
	p.SetCurrent("medium")
	if p.Disabled() || len(changes) != 0 {
		t.Fatalf("disabled=%v changes=%v", p.Disabled(), changes)
	}
	test.AssertRendersToMarkup(t, "pickers/thinking.xml", w.Canvas())
	p.picked(thinkingLabel("high"))
	if len(changes) != 1 || changes[0] != "high" || p.Current() != "high" {
		t.Fatalf("user pick gave %v", changes)
	}
}
