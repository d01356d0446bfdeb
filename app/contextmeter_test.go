package app

import (
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestWindowContextMeterOverTheWindow: a session whose last reply used
// more tokens than the current model's window holds (opened with a model
// of 32k) says so in words, not as 565 %.
func TestWindowContextMeterOverTheWindow(t *testing.T) {
	work := t.TempDir()
	file := testsupport.PiFixture(t, t.TempDir(), work, 180000)
	w, _ := openTestWindow(t, "--session", file, "--model", "fake/fast")
	testsupport.Eventually(t, "stats", func() bool { return drawn(w).Status.ContextTokens > 0 })
	st := drawn(w).Status
	got := st.ContextSummary()
	if st.ContextPercent <= 100 || got != "180k tokens: more than this model's 32k window" {
		t.Fatalf("status %+v says %q", st, got)
	}
}
