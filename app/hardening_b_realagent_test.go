package app

import (
	"strings"
	"testing"

	"knightcode.ai/desktop/widgets"
)

// The cases of issue 10's second half that pi 0.73.1 shows for itself: a
// loaded session longer than the model's window.

// TestRealAgentContextOverTheWindow: pi reports a loaded session whose
// last reply used 180k tokens, on a model with a 32k window, as 565 % of
// it; the status bar says in words that it does not fit.
func TestRealAgentContextOverTheWindow(t *testing.T) {
	c, s, _, env := startPi(t, nil)
	waitPiReady(t, s)
	file := piFixture(t, t.TempDir(), env.WorkDir, 180000)
	c.SwitchSession(file)
	eventually(t, "the session loaded", func() bool { return s.SessionFile() == file && len(s.View(nil).Items) > 2 })
	eventually(t, "the session's stats", func() bool { return s.View(nil).Status.ContextPercent > 100 })
	st := s.View(nil).Status
	got := widgets.ContextSummary(st)
	if !strings.HasSuffix(got, "tokens: more than this model's 32k window") || strings.Contains(got, "%") {
		t.Fatalf("pi's context usage %v%% of %d (%d tokens) is shown as %q", st.ContextPercent, st.ContextWindow, st.ContextTokens, got)
	}
	t.Logf("pi: %.1f%% of %d tokens; the status bar says %q", st.ContextPercent, st.ContextWindow, got)
}
