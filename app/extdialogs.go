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
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/palette"
)

// dialogQueue shows extension dialogs one at a time, in arrival order. All
// its methods run on the UI goroutine. Answers go out through respond,
// which never blocks (the controller sends on a goroutine).
type dialogQueue struct {
	parent  fyne.Window
	respond func(id string, answer model.Answer)
	// done runs when the last queued dialog has closed.
	done func()
	// do hands work to the UI goroutine (nil: uiloop.Do); the window's own
	// does nothing once its loop has ended.
	do func(func())
	// stack is the window's dialogs, which these join (nil: their own).
	stack *modalStack
	// held keeps dialogs waiting: their tab is not the one in front.
	held bool

	pending []waitingDialog
	current *openDialog
}

// waitingDialog is a request not shown yet; its timeout counts from when
// it arrived, shown or not.
type waitingDialog struct {
	req     model.Dialog
	arrived time.Time
}

// deadline is when the agent stops waiting for an answer (zero: never).
func (d waitingDialog) deadline() time.Time {
	if d.req.Timeout <= 0 {
		return time.Time{}
	}
	return d.arrived.Add(d.req.Timeout)
}

type openDialog struct {
	waitingDialog
	dlg      *keyDialog
	answered bool
	finished bool
	// stopTicking ends the countdown's ticker, if there is one.
	stopTicking func()
	// countdownLabel shows the time left before the agent's timeout.
	countdownLabel *widget.Label
	// focus is the dialog's entry or list, if it has one.
	focus fyne.Focusable
}

// Add queues a request; it shows at once when no other dialog is open
// and the queue is not held.
func (q *dialogQueue) Add(req model.Dialog) {
	q.pending = append(q.pending, waitingDialog{req: req, arrived: time.Now()})
	if q.current == nil && !q.held {
		q.next()
	}
}

// Hold keeps new dialogs waiting: their tab is behind another. The one
// showing, if any, is a modal of the tab's stack, which takes it off the
// screen as it is (typed text and countdown kept) and brings it back.
func (q *dialogQueue) Hold() { q.held = true }

// Release shows what waits, once the queue was held.
func (q *dialogQueue) Release() {
	if !q.held {
		return
	}
	q.held = false
	if q.current == nil && len(q.pending) > 0 {
		q.next()
	}
}

// Waiting reports whether a dialog is open or waits to be.
func (q *dialogQueue) Waiting() bool {
	if q.current != nil {
		return true
	}
	for _, d := range q.pending {
		if dl := d.deadline(); dl.IsZero() || time.Now().Before(dl) {
			return true
		}
	}
	return false
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
	// A request whose timeout passed while it waited has been answered by
	// the agent itself with its default.
	for len(q.pending) > 0 {
		if dl := q.pending[0].deadline(); dl.IsZero() || time.Now().Before(dl) {
			break
		}
		q.pending = q.pending[1:]
	}
	if len(q.pending) == 0 {
		q.current = nil
		if q.done != nil {
			q.done()
		}
		return
	}
	d := &openDialog{waitingDialog: q.pending[0]}
	req := d.req
	q.pending = q.pending[1:]
	q.current = d
	d.dlg = q.build(d)
	// Closing the dialog any other way than its answers is a cancel.
	d.dlg.onClosed = func() {
		if !d.answered {
			d.answered = true
			q.respond(req.ID, model.AnswerCancelled())
		}
		q.finish(d)
	}
	// The editor behind the dialog must not take Esc (it would stop the
	// agent); the dialog's own entry or list takes the focus, or nothing
	// does and the window hands Esc and Enter to the dialog.
	d.dlg.focus = d.focus
	d.dlg.Show()
	if req.Timeout > 0 {
		q.countdown(d)
	}
}

// Open reports whether a dialog is showing.
func (q *dialogQueue) Open() bool { return q.current != nil }

// CancelCurrent answers the showing dialog with cancelled, as Esc does.
func (q *dialogQueue) CancelCurrent() {
	if d := q.current; d != nil {
		q.answer(d, model.AnswerCancelled())
	}
}

// answer sends the user's answer once and closes the dialog.
func (q *dialogQueue) answer(d *openDialog, a model.Answer) {
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
	d.dlg.Close()
	q.next()
}

// build makes the dialog for d's request: Esc cancels it, Enter gives
// the default answer (Yes, the picked option, the text).
func (q *dialogQueue) build(d *openDialog) *keyDialog {
	req := d.req
	title := req.Title
	if title == "" {
		title = "The agent asks"
	}
	k := newKeyDialog(q.parent, q.modals())
	// Extensions' text is shown as plain text, never as markup.
	message := widget.NewLabel(req.Message)
	message.Wrapping = fyne.TextWrapWord
	content := container.NewVBox()
	if req.Message != "" {
		content.Add(message)
	}
	d.countdownLabel = widget.NewLabel("")
	d.countdownLabel.Importance = widget.LowImportance
	cancel := dialogAction{label: "Cancel", isCancel: true, run: func() { q.answer(d, model.AnswerCancelled()) }}
	switch req.Kind {
	case model.DialogConfirm:
		content.Add(d.countdownLabel)
		// Esc cancels (the agent hears "cancelled"); No is an answer.
		k.build(title, content,
			dialogAction{label: "No", icon: theme.CancelIcon(), run: func() { q.answer(d, model.AnswerConfirmed(false)) }},
			dialogAction{label: "Yes", icon: theme.ConfirmIcon(), isDefault: true, run: func() { q.answer(d, model.AnswerConfirmed(true)) }})
		k.Resize(fyne.NewSize(440, 200))
	case model.DialogSelect:
		list := palette.NewOptionList(req.Options, k.Keys())
		d.focus = list.Focusable()
		choose := func() {
			if i := list.Selected(); i >= 0 && i < len(req.Options) {
				q.answer(d, req.Choose(i))
			}
		}
		hint := widget.NewLabel("↑ ↓ pick · Enter chooses · Esc cancels")
		hint.Importance = widget.LowImportance
		rows := min(len(req.Options), 8)
		box := container.NewBorder(content, container.NewVBox(hint, d.countdownLabel), nil, nil,
			container.NewGridWrap(fyne.NewSize(400, float32(rows)*38), list))
		k.build(title, box, cancel,
			dialogAction{label: "Choose", icon: theme.ConfirmIcon(), isDefault: true, run: choose})
		// Nothing is picked until the user picks: Choose waits for that.
		chooseButton := k.buttons[1]
		chooseButton.Disable()
		list.OnSelect = func(int) { chooseButton.Enable() }
		list.OnChoose = func(int) { k.Submit() }
		k.Resize(fyne.NewSize(440, 190+float32(rows)*38))
	case model.DialogEditor:
		q.textDialog(k, d, title, "Save", true, content)
		k.Resize(fyne.NewSize(560, 440))
	default: // input
		q.textDialog(k, d, title, "OK", false, content)
		k.Resize(fyne.NewSize(440, 0).Max(k.dlg.MinSize()))
	}
	return k
}

// modals is the stack the dialogs join: the window's, or one of their own.
func (q *dialogQueue) modals() *modalStack {
	if q.stack == nil {
		q.stack = &modalStack{}
	}
	return q.stack
}

// textDialog asks for text: one line (input, Enter answers) or many
// (editor: Enter starts a new line, Ctrl+Enter answers).
func (q *dialogQueue) textDialog(k *keyDialog, d *openDialog, title, okLabel string, multiLine bool, content *fyne.Container) {
	var entry *kit.DialogEntry
	if multiLine {
		entry = kit.NewDialogMultiLineEntry(k.Keys())
		entry.SetMinRowsVisible(10)
	} else {
		entry = kit.NewDialogEntry(k.Keys())
	}
	entry.SetPlaceHolder(d.req.Placeholder)
	entry.SetText(d.req.Prefill)
	d.focus = entry
	content.Add(entry)
	if multiLine {
		hint := widget.NewLabel("Enter adds a line · Ctrl+Enter saves · Esc cancels")
		hint.Importance = widget.LowImportance
		content.Add(hint)
	}
	content.Add(d.countdownLabel)
	k.build(title, content,
		dialogAction{label: "Cancel", isCancel: true, run: func() { q.answer(d, model.AnswerCancelled()) }},
		dialogAction{label: okLabel, icon: theme.ConfirmIcon(), isDefault: true, run: func() { q.answer(d, model.AnswerText(entry.Text)) }})
}

// countdown shows the time left and closes the dialog when the agent's
// timeout passes: the agent has then answered itself with its default, so
// nothing is sent late.
func (q *dialogQueue) countdown(d *openDialog) {
	deadline := d.deadline()
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
	d.stopTicking = uiloop.Tick(q.do, 200*time.Millisecond, func() {
		if q.current == d {
			show()
		}
	})
}
