package app

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/rpcconn"
)

// dialogQueue shows extension dialogs one at a time, in arrival order. All
// its methods run on the UI goroutine. Answers go out through respond,
// which never blocks (the controller sends on a goroutine).
type dialogQueue struct {
	parent  fyne.Window
	respond func(id string, answer rpcconn.UIAnswer)
	// done runs when the last queued dialog has closed.
	done func()
	// do hands work to the UI goroutine (nil: uiDo); the window's own
	// does nothing once its loop has ended.
	do func(func())

	pending []*rpcconn.ExtensionUIRequest
	current *openDialog
}

type openDialog struct {
	req      *rpcconn.ExtensionUIRequest
	dlg      dialog.Dialog
	answered bool
	finished bool
	// stopTicking ends the countdown's ticker, if there is one.
	stopTicking func()
	// countdownLabel shows the time left before the agent's timeout.
	countdownLabel *widget.Label
	// focus is the dialog's entry, if it has one.
	focus fyne.Focusable
}

// escEntry is an entry that cancels its dialog on Esc, which a plain entry
// ignores.
type escEntry struct {
	widget.Entry
	onEscape func()
}

func newEscEntry(multiLine bool, onEscape func()) *escEntry {
	e := &escEntry{onEscape: onEscape}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	}
	e.ExtendBaseWidget(e)
	return e
}

func (e *escEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(ev)
}

// Add queues a request; it shows at once when no other dialog is open.
func (q *dialogQueue) Add(req *rpcconn.ExtensionUIRequest) {
	q.pending = append(q.pending, req)
	if q.current == nil {
		q.next()
	}
}

// CloseAll closes every dialog without answering: the agent that asked is
// gone, or has already resolved them.
func (q *dialogQueue) CloseAll() {
	q.pending = nil
	if d := q.current; d != nil {
		d.answered = true
		q.finish(d)
	}
}

func (q *dialogQueue) next() {
	if len(q.pending) == 0 {
		q.current = nil
		if q.done != nil {
			q.done()
		}
		return
	}
	req := q.pending[0]
	q.pending = q.pending[1:]
	d := &openDialog{req: req}
	q.current = d
	d.dlg = q.build(d)
	d.dlg.SetOnClosed(func() {
		// Closing the dialog any other way than its buttons is a cancel.
		if !d.answered {
			d.answered = true
			q.respond(req.ID, rpcconn.AnswerCancelled())
		}
		q.finish(d)
	})
	d.dlg.Show()
	if req.TimeoutMs > 0 {
		q.countdown(d)
	}
	// The editor behind the dialog must not take Esc (it would stop the
	// agent); the dialog's own entry takes the focus, or nothing does.
	if d.focus != nil {
		q.parent.Canvas().Focus(d.focus)
	} else {
		q.parent.Canvas().Unfocus()
	}
}

// Open reports whether a dialog is showing.
func (q *dialogQueue) Open() bool { return q.current != nil }

// CancelCurrent answers the showing dialog with cancelled, as Esc does.
func (q *dialogQueue) CancelCurrent() {
	if d := q.current; d != nil {
		q.answer(d, rpcconn.AnswerCancelled())
	}
}

// answer sends the user's answer once and closes the dialog.
func (q *dialogQueue) answer(d *openDialog, a rpcconn.UIAnswer) {
	if d.answered {
		return
	}
	d.answered = true
	q.respond(d.req.ID, a)
	q.finish(d)
}

func (q *dialogQueue) finish(d *openDialog) {
	if q.current != d || d.finished {
		return
	}
	// Hiding the dialog calls its OnClosed, which comes back here: mark it
	// finished first.
	d.finished = true
	if d.stopTicking != nil {
		d.stopTicking()
	}
	q.current = nil
	d.dlg.Hide()
	q.next()
}

func (q *dialogQueue) build(d *openDialog) dialog.Dialog {
	req := d.req
	title := plain(req.Title)
	if title == "" {
		title = "The agent asks"
	}
	// Extensions' text is shown as plain text, never as markup.
	message := widget.NewLabel(plain(req.Message))
	message.Wrapping = fyne.TextWrapWord
	content := container.NewVBox()
	if req.Message != "" {
		content.Add(message)
	}
	d.countdownLabel = widget.NewLabel("")
	switch req.Method {
	case rpcconn.UIConfirm:
		content.Add(d.countdownLabel)
		dlg := dialog.NewCustomConfirm(title, "Yes", "No", content, func(yes bool) {
			q.answer(d, rpcconn.AnswerConfirmed(yes))
		}, q.parent)
		dlg.Resize(fyne.NewSize(440, 200))
		return dlg
	case rpcconn.UISelect:
		list := widget.NewRadioGroup(req.Options, nil)
		content.Add(list)
		content.Add(d.countdownLabel)
		dlg := dialog.NewCustomConfirm(title, "Choose", "Cancel", content, func(ok bool) {
			if ok && list.Selected != "" {
				q.answer(d, rpcconn.AnswerValue(list.Selected))
			} else {
				q.answer(d, rpcconn.AnswerCancelled())
			}
		}, q.parent)
		dlg.Resize(fyne.NewSize(440, 160+float32(len(req.Options))*36))
		return dlg
	case rpcconn.UIEditor:
		dlg := q.textDialog(d, title, "Save", true, content)
		dlg.Resize(fyne.NewSize(560, 420))
		return dlg
	default: // input
		return q.textDialog(d, title, "OK", false, content)
	}
}

// textDialog asks for text: one line (input) or many (editor), answered
// with its value or cancelled.
func (q *dialogQueue) textDialog(d *openDialog, title, okLabel string, multiLine bool, content *fyne.Container) dialog.Dialog {
	entry := newEscEntry(multiLine, func() { q.answer(d, rpcconn.AnswerCancelled()) })
	entry.SetPlaceHolder(plain(d.req.Placeholder))
	entry.SetText(d.req.Prefill)
	if multiLine {
		entry.SetMinRowsVisible(10)
	} else {
		entry.OnSubmitted = func(string) { q.answer(d, rpcconn.AnswerValue(entry.Text)) }
	}
	d.focus = entry
	content.Add(entry)
	content.Add(d.countdownLabel)
	return dialog.NewCustomConfirm(title, okLabel, "Cancel", content, func(ok bool) {
		if ok {
			q.answer(d, rpcconn.AnswerValue(entry.Text))
		} else {
			q.answer(d, rpcconn.AnswerCancelled())
		}
	}, q.parent)
}

// countdown shows the time left and closes the dialog when the agent's
// timeout passes: the agent has then answered itself with its default, so
// nothing is sent late.
func (q *dialogQueue) countdown(d *openDialog) {
	deadline := time.Now().Add(time.Duration(d.req.TimeoutMs) * time.Millisecond)
	show := func() bool {
		left := time.Until(deadline)
		if left <= 0 {
			d.answered = true
			q.finish(d)
			return false
		}
		d.countdownLabel.SetText(fmt.Sprintf("Closes in %d s", int(left.Seconds()+0.999)))
		return true
	}
	show()
	d.stopTicking = tickOnUI(q.do, 200*time.Millisecond, func() {
		if q.current == d {
			show()
		}
	})
}
