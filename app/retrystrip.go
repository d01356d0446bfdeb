package app

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/app/uiloop"
	"knightcode.ai/desktop/model"
)

// retryStrip shows a pending automatic retry with a countdown and a way to
// abort it. Its ticker runs only while a retry is pending.
type retryStrip struct {
	box   *fyne.Container
	label *widget.Label
	state *model.RetryState
	// stopTicking ends the countdown's ticker while one runs.
	stopTicking func()
	// do hands the ticks to the UI goroutine.
	do func(func())
}

func newRetryStrip(do func(func()), abort func()) *retryStrip {
	r := &retryStrip{label: widget.NewLabel(""), do: do}
	r.label.Wrapping = fyne.TextWrapWord
	button := widget.NewButtonWithIcon("Abort retry", theme.CancelIcon(), abort)
	r.box = container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), button, r.label)
	r.box.Hide()
	return r
}

// Set shows state (nil hides the strip); it runs on the UI goroutine.
func (r *retryStrip) Set(state *model.RetryState) {
	r.state = state
	if state == nil {
		r.halt()
		r.box.Hide()
		return
	}
	r.show()
	r.box.Show()
	if r.stopTicking == nil {
		r.stopTicking = uiloop.Tick(r.do, 250*time.Millisecond, r.show)
	}
}

func (r *retryStrip) halt() {
	if r.stopTicking != nil {
		r.stopTicking()
		r.stopTicking = nil
	}
}

func (r *retryStrip) show() {
	s := r.state
	if s == nil {
		return
	}
	what := "Retrying"
	if s.Summary {
		what = "Retrying the summary"
	}
	left := time.Until(s.At).Seconds()
	if left < 0 {
		left = 0
	}
	text := fmt.Sprintf("%s (attempt %d of %d) in %.0f s", what, s.Attempt, s.Max, left+0.49)
	if s.Error != "" {
		text += " after: " + model.OneLine(model.Plain(s.Error), 140)
	}
	r.label.SetText(text)
}
