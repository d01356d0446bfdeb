package app

import (
	"slices"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// Choosing a level the model does not take: the picker shows the level the
// agent took, no longer offers the one chosen, and a toast says so.
func TestWindowThinkingLevelNotTakenIsToldAndDropped(t *testing.T) {
	w, log := openTestWindow(t, "--fake-thinking-cap=medium")
	testsupport.Eventually(t, "levels offered", func() bool {
		var levels []string
		onUI(func() { w.draw(); levels = w.thinking.Levels() })
		return slices.Contains(levels, "high")
	})
	onUI(func() { w.thinking.OnChange("high") })
	told := model.TookOtherLevel("high", "medium")
	testsupport.Eventually(t, "a toast says which level the model took", func() bool {
		var found bool
		onUI(func() {
			for _, n := range w.toasts.History() {
				found = found || n.Text == told
			}
		})
		return found
	})
	var current string
	var levels []string
	onUI(func() { w.draw(); current, levels = w.thinking.Current(), w.thinking.Levels() })
	if current != "medium" || slices.Contains(levels, "high") {
		t.Fatalf("picker shows %q and offers %v", current, levels)
	}
	if sets := sentOfType(t, log, "set_thinking_level"); len(sets) != 1 || sets[0]["level"] != "high" {
		t.Fatalf("sent %v", sets)
	}
}
