package model

import (
	"context"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
)

// toolTimes are the cards' durations, by call id.
func toolTimes(s *Session) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, c := range s.View(nil).Cards {
		out[c.ID] = c.Ended.Sub(c.Started)
	}
	return out
}

// A tool card's time is the same live and after a reload with both pi
// generations: pi 1.6's durationMs both times; for pi 0.73.1, which gives
// none, the agent's timestamps both times (from the reply that made the
// call to its result), as a reload has nothing else.
func TestToolTimeIsTheSameLiveAndReloaded(t *testing.T) {
	for _, older := range []bool{false, true} {
		args := []string{"--fake-delay=20ms"}
		if older {
			args = append(args, "--fake-older")
		}
		c, s, _ := startController(t, args...)
		c.Send("run it [[slow:30]] [[bash:ls]] [[tool:read:main.go]]", nil, false, nil)
		testsupport.Eventually(t, "two tools done and the run settled", func() bool {
			v := s.View(nil)
			done := 0
			for _, card := range v.Cards {
				if card.Status == ToolDone || card.Status == ToolFailed {
					done++
				}
			}
			return done == 2 && !v.Running
		})
		live := toolTimes(s)
		msgs, err := c.current().GetMessages(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		reloaded := NewSession()
		reloaded.LoadHistory(msgs)
		again := toolTimes(reloaded)
		if len(live) != 2 || len(again) != 2 {
			t.Fatalf("older %v: live %v, reloaded %v", older, live, again)
		}
		for id, d := range live {
			if again[id] != d || d <= 0 {
				t.Errorf("older %v: %s took %v live, %v reloaded", older, id, d, again[id])
			}
		}
	}
}
