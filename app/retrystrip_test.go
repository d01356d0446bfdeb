package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
)

// The strip's "Abort retry" button asks the agent to stop retrying: the
// strip is built with the commands surface's action, which must exist by
// then (a method value of a nil surface would panic on the first press).
func TestRetryStripAbortReachesTheAgent(t *testing.T) {
	w, log := openTestWindow(t)
	var abort *widget.Button
	onUI(func() {
		abort = buttonIn(w.retry.box, "Abort retry")
	})
	if abort == nil {
		t.Fatal("the retry strip has no Abort retry button")
	}
	onUI(func() { test.Tap(abort) })
	testsupport.Eventually(t, "abort_retry sent", func() bool {
		return len(sentOfType(t, log, "abort_retry")) == 1
	})
}

// buttonIn finds the button labelled text among o's descendants.
func buttonIn(o fyne.CanvasObject, text string) *widget.Button {
	switch v := o.(type) {
	case *widget.Button:
		if v.Text == text {
			return v
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			if b := buttonIn(c, text); b != nil {
				return b
			}
		}
	}
	return nil
}
