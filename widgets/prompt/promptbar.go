package prompt

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Hint lines under the editor; they say what the keys do right now.
const (
	promptHintIdle      = "Enter sends · Shift+Enter adds a line"
	promptHintStreaming = "Enter steers · Alt+Enter queues a follow-up · Esc stops"
	promptHintCommand   = "Enter sends · Esc stops the command"
)

// PromptBar is the bottom of the chat: the queue of waiting messages, the
// editor with its Send (Steer while the agent streams) and Stop buttons, and
// a hint line naming the keys.
type PromptBar struct {
	widget.BaseWidget

	// Editor is the bar's editor. The bar owns its OnSubmit; OnShortcut is
	// the app's to set. Its OnEscape stops the agent while streaming until
	// the app sets its own.
	Editor *PromptEditor

	// OnSubmit gets the draft from Enter or the Send button. The draft stays
	// until the app calls Editor.Clear.
	OnSubmit func(text string, mode SubmitMode)
	// OnStop aborts the run.
	OnStop func()

	queue     *QueueStrip
	send      *widget.Button
	stop      *widget.Button
	hint      *canvas.Text
	streaming bool
	// command is true while a !command runs: Stop shows, Enter still sends.
	command bool
	// note, when set, stands in place of the key hints.
	note string
}

// NewPromptBar returns a bar in the idle state.
func NewPromptBar() *PromptBar {
	b := &PromptBar{Editor: NewPromptEditor(), queue: NewQueueStrip()}
	b.Editor.OnSubmit = func(text string, mode SubmitMode) {
		if b.OnSubmit != nil {
			b.OnSubmit(text, mode)
		}
	}
	b.Editor.OnEscape = func() {
		if (b.streaming || b.command) && b.OnStop != nil {
			b.OnStop()
		}
	}
	b.send = widget.NewButtonWithIcon("Send", theme.MailSendIcon(), b.Editor.Submit)
	b.send.Importance = widget.HighImportance
	b.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), func() {
		if b.OnStop != nil {
			b.OnStop()
		}
	})
	b.stop.Importance = widget.DangerImportance
	b.stop.Hide()
	b.hint = canvas.NewText(promptHintIdle, nil)
	b.ExtendBaseWidget(b)
	return b
}

// SetStreaming switches the bar between idle (Send) and a running agent
// (Steer, Stop, and the steering hint).
func (b *PromptBar) SetStreaming(streaming bool) {
	if b.streaming == streaming {
		return
	}
	b.streaming = streaming
	b.Editor.SetStreaming(streaming)
	if streaming {
		b.send.SetText("Steer")
	} else {
		b.send.SetText("Send")
	}
	b.showStop()
}

// SetCommandRunning shows Stop while a !command runs, also when the agent
// is otherwise idle; Enter keeps sending.
func (b *PromptBar) SetCommandRunning(running bool) {
	if b.command == running {
		return
	}
	b.command = running
	b.showStop()
}

// SetNote shows a note in place of the key hints, until it is set empty:
// for a state the keys mean something else in, such as editing an earlier
// prompt.
func (b *PromptBar) SetNote(note string) {
	if b.note == note {
		return
	}
	b.note = note
	b.showStop()
}

// StopVisible reports whether the Stop button shows.
func (b *PromptBar) StopVisible() bool { return b.stop.Visible() }

func (b *PromptBar) showStop() {
	switch {
	case b.note != "":
		b.hint.Text = b.note
	case b.streaming:
		b.hint.Text = promptHintStreaming
	case b.command:
		b.hint.Text = promptHintCommand
	default:
		b.hint.Text = promptHintIdle
	}
	if b.streaming || b.command {
		b.stop.Show()
	} else {
		b.stop.Hide()
	}
	b.hint.Refresh()
	b.Refresh()
}

// Stop is the Stop button's action, for tests and keyboard-less use.
func (b *PromptBar) Stop() {
	if b.stop.Visible() && b.OnStop != nil {
		b.OnStop()
	}
}

// SetQueue shows the steering and follow-up messages waiting for the agent.
func (b *PromptBar) SetQueue(steering, followUp []string) {
	b.queueChange(func() { b.queue.SetQueue(steering, followUp) })
}

// SetWaiting shows prompts held until the agent can take them.
func (b *PromptBar) SetWaiting(texts []string) {
	b.queueChange(func() { b.queue.SetWaiting(texts) })
}

// SetQueueNote says, above the waiting messages, what becomes of them.
func (b *PromptBar) SetQueueNote(note string) {
	if b.queue.Note() == note {
		return
	}
	b.queueChange(func() { b.queue.SetNote(note) })
}

// QueueNote is the note above the waiting messages.
func (b *PromptBar) QueueNote() string { return b.queue.Note() }

func (b *PromptBar) queueChange(change func()) {
	wasVisible := b.queue.Visible()
	change()
	if wasVisible != b.queue.Visible() || b.queue.Visible() {
		b.Refresh() // the strip's height changes the bar's
	}
}

func (b *PromptBar) CreateRenderer() fyne.WidgetRenderer {
	r := &promptBarRenderer{b: b}
	r.Refresh()
	return r
}

type promptBarRenderer struct {
	b  *PromptBar
	bw float32
}

func (r *promptBarRenderer) Destroy() {}

func (r *promptBarRenderer) Objects() []fyne.CanvasObject {
	b := r.b
	return []fyne.CanvasObject{b.queue, b.Editor, b.send, b.stop, b.hint}
}

// buttonsWidth is the width of the widest label the buttons show in either
// state, so the editor keeps its width when streaming starts.
func (r *promptBarRenderer) buttonsWidth() float32 {
	if r.bw == 0 {
		for _, s := range []string{"Send", "Steer"} {
			r.bw = max(r.bw, widget.NewButtonWithIcon(s, theme.MailSendIcon(), nil).MinSize().Width)
		}
		r.bw = max(r.bw, r.b.stop.MinSize().Width)
	}
	return r.bw
}

func (r *promptBarRenderer) MinSize() fyne.Size {
	b := r.b
	pad := b.Theme().Size(theme.SizeNamePadding)
	h := max(b.Editor.MinSize().Height, 2*b.send.MinSize().Height+pad) + pad + b.hint.MinSize().Height
	if b.queue.Visible() {
		h += b.queue.MinSize().Height + pad
	}
	return fyne.NewSize(b.Editor.MinSize().Width+pad+r.buttonsWidth(), h)
}

func (r *promptBarRenderer) Layout(size fyne.Size) {
	b := r.b
	pad := b.Theme().Size(theme.SizeNamePadding)
	y := float32(0)
	if b.queue.Visible() {
		qh := b.queue.MinSize().Height
		b.queue.Move(fyne.NewPos(0, 0))
		b.queue.Resize(fyne.NewSize(size.Width, qh))
		y += qh + pad
	}
	hintH := b.hint.MinSize().Height
	bw := r.buttonsWidth()
	editorH := size.Height - y - pad - hintH
	b.Editor.Move(fyne.NewPos(0, y))
	b.Editor.Resize(fyne.NewSize(size.Width-bw-pad, editorH))
	bh := b.send.MinSize().Height
	b.send.Move(fyne.NewPos(size.Width-bw, y))
	b.send.Resize(fyne.NewSize(bw, bh))
	b.stop.Move(fyne.NewPos(size.Width-bw, y+bh+pad))
	b.stop.Resize(fyne.NewSize(bw, bh))
	th := b.Theme()
	b.hint.Move(fyne.NewPos(th.Size(theme.SizeNameInnerPadding), y+editorH+pad))
	b.hint.Resize(fyne.NewSize(size.Width, hintH))
}

func (r *promptBarRenderer) Refresh() {
	b := r.b
	th := b.Theme()
	b.hint.TextSize = th.Size(theme.SizeNameCaptionText)
	b.hint.Color = th.Color(theme.ColorNamePlaceHolder, fyne.CurrentApp().Settings().ThemeVariant())
	b.hint.Refresh()
	r.bw = 0 // the theme may have changed
	r.Layout(b.Size())
	canvas.Refresh(b)
}

// Note is the note SetNote set.
func (b *PromptBar) Note() string { return b.note }
