package model

import (
	"slices"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

func (u *recordingUI) noticeTexts() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for _, n := range u.notices {
		out = append(out, n.Text)
	}
	return out
}

// pi 0.73.1 cannot list a model's levels: the picker offers what its rule
// gives for the model (no xhigh without a thinkingLevelMap), not a level
// the agent would quietly turn into another.
func TestOlderAgentOffersOnlyTheLevelsTheModelTakes(t *testing.T) {
	_, s, _ := startController(t, "--fake-older")
	want := []string{"off", "minimal", "low", "medium", "high"}
	if got := s.View(nil).Levels; !slices.Equal(got, want) {
		t.Fatalf("levels %v, want %v", got, want)
	}
}

// An agent that takes another level than the one chosen is believed, says
// so through a notice, and the level is no longer offered for this model.
func TestThinkingLevelTheModelDidNotTakeIsToldAndDropped(t *testing.T) {
	c, s, ui := startController(t, "--fake-thinking-cap=medium")
	if !slices.Contains(s.View(nil).Levels, "high") {
		t.Fatalf("levels %v lack high", s.View(nil).Levels)
	}
	c.SelectThinking("high")
	testsupport.Eventually(t, "told which level the model took", func() bool {
		return slices.Contains(ui.noticeTexts(), "The model took medium, not high.")
	})
	v := s.View(nil)
	if s.Thinking() != "medium" || slices.Contains(v.Levels, "high") {
		t.Fatalf("thinking %q, levels %v", s.Thinking(), v.Levels)
	}
	// A level the model takes says nothing.
	c.SelectThinking("low")
	testsupport.Eventually(t, "thinking low", func() bool { return s.Thinking() == "low" })
	if n := len(ui.noticeTexts()); n != 1 {
		t.Fatalf("notices %v", ui.noticeTexts())
	}
}
