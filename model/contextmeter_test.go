package model

import (
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

func TestCompactCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 1000: "1k", 12345: "12.3k", 200000: "200k", 1500000: "1.5M"} {
		if got := CompactCount(n); got != want {
			t.Errorf("CompactCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// A switch to a model with a smaller window shows the new window at once,
// with the tokens so far, not the old one until the next reply.
func TestContextMeterFollowsTheModelSwitchedTo(t *testing.T) {
	s := NewSession()
	tokens, percent := 1000, 1000*100/32000.0
	s.SetModel(&rpcconn.Model{ID: "big", Provider: "p", ContextWindow: 32000}, "")
	s.SetStats(rpcconn.SessionStats{ContextUsage: &rpcconn.ContextUsage{Tokens: &tokens, ContextWindow: 32000, Percent: &percent}})
	if got := s.View(nil).Status.ContextSummary(); got != "1k / 32k (3%)" {
		t.Fatalf("before the switch: %q", got)
	}
	s.SetModel(&rpcconn.Model{ID: "small", Provider: "p", ContextWindow: 16000}, "")
	if got := s.View(nil).Status.ContextSummary(); got != "1k / 16k (6%)" {
		t.Fatalf("after the switch: %q", got)
	}
	// Over the new window: said in words, not as a percentage above 100.
	s.SetModel(&rpcconn.Model{ID: "tiny", Provider: "p", ContextWindow: 800}, "")
	if _, _, level := s.View(nil).Status.ContextMeter(); level != ContextOver {
		t.Fatalf("1k tokens in an 800-token window: level %v", level)
	}
}
