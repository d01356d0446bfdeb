package app

import (
	"testing"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestWindowGivesQueueBackWhenAgentCrashes: the agent crashes with a steer
// and a follow-up queued; both come back into the editor, above the draft
// the user was typing meanwhile, which stays whole.
func TestWindowGivesQueueBackWhenAgentCrashes(t *testing.T) {
	w, _ := openTestWindow(t)
	typeAndSend(w, "question [[ext:confirm]] [[crash]] [[long:20]]")
	testsupport.Eventually(t, "the dialog", func() bool { return dialogOpen(w) })
	onUI(func() {
		w.controller.Send("steer me", nil, false, nil)
		w.controller.Send("follow me", nil, true, nil)
	})
	testsupport.Eventually(t, "queued", func() bool {
		v := drawn(w)
		return len(v.Steering) == 1 && len(v.FollowUp) == 1
	})
	onUI(func() { w.composer.prompt.Editor.SetText("still typing") })
	press(w, fyne.KeyReturn) // answers the dialog: the reply streams and crashes
	want := "steer me\n\nfollow me\n\nstill typing"
	testsupport.Eventually(t, "texts back in the editor", func() bool { text, _ := editorState(w); return text == want })
	if v := drawn(w); len(v.Steering)+len(v.FollowUp) != 0 {
		t.Fatalf("still queued after the crash: %q %q", v.Steering, v.FollowUp)
	}
}
