package model

import (
	"slices"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestControllerGivesQueueBackWhenAgentEnds: an agent that crashes, or
// exits by itself, with a steer and a follow-up queued gives both texts
// back to the editor exactly once, steer first, with one notice saying
// how many; nothing of them stays in the queue or shows as waiting.
func TestControllerGivesQueueBackWhenAgentEnds(t *testing.T) {
	for _, tc := range []struct{ name, marker string }{
		{"crash", "[[crash]]"},
		{"exit by itself", "[[crash:0]]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s, ui := startController(t)
			// The run waits for the dialog's answer: the queue is filled
			// before the reply streams and the agent ends three deltas in.
			c.Send("[[ext:confirm]] "+tc.marker+" [[long:20]]", nil, false, nil)
			testsupport.Eventually(t, "dialog", func() bool { return len(ui.snapshot().dialogs) == 1 })
			c.Send("steer me", nil, false, nil)
			c.Send("follow me", nil, true, nil)
			testsupport.Eventually(t, "queued", func() bool {
				v := s.View(nil)
				return len(v.Steering) == 1 && len(v.FollowUp) == 1
			})
			c.Respond(ui.snapshot().dialogs[0].ID, AnswerConfirmed(true))
			testsupport.Eventually(t, "ended", func() bool { return s.View(nil).Conn == ConnExited })
			testsupport.Eventually(t, "given back", func() bool { return len(ui.snapshot().given) > 0 })

			got := ui.snapshot()
			if len(got.given) != 1 || !slices.Equal(got.given[0], []string{"steer me", "follow me"}) {
				t.Fatalf("given back %q", got.given)
			}
			if len(got.drafts) != 0 {
				t.Fatalf("also restored one by one: %q", got.drafts)
			}
			v := s.View(nil)
			if len(v.Steering)+len(v.FollowUp) != 0 {
				t.Fatalf("still queued: %q %q", v.Steering, v.FollowUp)
			}
			notices := 0
			for _, it := range v.Items {
				if it.Waiting {
					t.Fatalf("still waiting: %+v", it)
				}
				if it.Kind == ChatNotice && strings.Contains(it.Text, "2 messages it had not taken are back in the editor") {
					notices++
				}
			}
			if notices != 1 {
				t.Fatalf("%d notices of the given back texts", notices)
			}
		})
	}
}
