package app

import (
	"context"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// Edit & resend makes a new session: it is named as an edit of the one it
// came from, and the browser's row for it says where it came from.
func TestWindowEditAndResendNamesTheForkAndShowsItsOrigin(t *testing.T) {
	w, _ := openTestWindow(t, "--session-dir", t.TempDir())
	typeAndSend(w, "first prompt")
	testsupport.Eventually(t, "first reply", func() bool { return settledReply(w) })
	typeAndSend(w, "second prompt")
	testsupport.Eventually(t, "second reply", func() bool { return settledReply(w) && len(drawn(w).Items) >= 4 })
	parent := w.session.SessionFile()

	w.controller.SendEdited(1, "second prompt", "second prompt, edited", nil, nil)
	testsupport.Eventually(t, "the fork named and answered", func() bool {
		return drawn(w).SessionName == "first prompt (edited)" && settledReply(w) && w.session.SessionFile() != parent
	})
	infos, _, err := w.controller.Sessions(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	rows := sessionRows(infos, w.session.SessionFile())
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		switch {
		case r.Current && (r.Title != "first prompt (edited)" || r.From != "first prompt"):
			t.Errorf("the fork's row %+v", r)
		case !r.Current && (r.Path != parent || r.Title != "first prompt" || r.From != ""):
			t.Errorf("the original's row %+v", r)
		}
	}
}
