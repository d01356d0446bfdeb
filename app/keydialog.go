package app

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// Every dialog of the app obeys the keyboard: Esc closes it as its Cancel
// (or Close) button does, Enter presses its default button. The widgets in
// a dialog are widgets.Dialog* ones, which hand both keys to the dialog
// when they have the focus; with nothing focused the window's canvas gets
// the keys and hands them to the dialog on top (modalStack.key). Fyne's
// own dialogs do neither, so the app builds its dialogs here.

// modal is a dialog on the window's stack.
type modal interface {
	// Cancel closes it as Esc does.
	Cancel()
	// Submit presses its default button, as Enter does.
	Submit()
	// suspend takes it off the screen while its tab is behind another,
	// resume puts it back.
	suspend()
	resume()
}

// modalStack is the window's open dialogs, the top one last. It is used on
// the UI goroutine only.
type modalStack struct {
	list []modal
	// empty runs when the last dialog closed, to put the keyboard back
	// into the editor.
	empty func()
	// held: the tab is behind another; its dialogs wait off the screen.
	held bool
}

// hold takes the tab's dialogs off the screen; release shows them again,
// the keyboard in the top one.
func (s *modalStack) hold() {
	if s.held {
		return
	}
	s.held = true
	for _, m := range slices.Clone(s.list) {
		m.suspend()
	}
}

func (s *modalStack) release() {
	if !s.held {
		return
	}
	s.held = false
	for _, m := range slices.Clone(s.list) {
		m.resume()
	}
}

func (s *modalStack) push(m modal) {
	if s != nil {
		s.list = append(s.list, m)
	}
}

func (s *modalStack) remove(m modal) {
	if s == nil {
		return
	}
	i := slices.Index(s.list, m)
	if i < 0 {
		return
	}
	s.list = slices.Delete(s.list, i, i+1)
	if len(s.list) == 0 && s.empty != nil {
		s.empty()
	}
}

// top is the dialog in front, or nil.
func (s *modalStack) top() modal {
	if s == nil || len(s.list) == 0 {
		return nil
	}
	return s.list[len(s.list)-1]
}

// key hands Esc and Enter to the dialog in front; it reports whether there
// was one.
func (s *modalStack) key(ev *fyne.KeyEvent) bool {
	m := s.top()
	if m == nil {
		return false
	}
	switch ev.Name {
	case fyne.KeyEscape:
		m.Cancel()
	case fyne.KeyReturn, fyne.KeyEnter:
		m.Submit()
	}
	return true
}

// dialogAction is a button of a keyDialog.
type dialogAction struct {
	label string
	icon  fyne.Resource
	// run is what the button does after the dialog closed; nil just closes.
	run func()
	// isDefault marks the button Enter presses (drawn highlighted); at
	// most one.
	isDefault bool
	// isCancel marks the button Esc presses; without one Esc just closes.
	isCancel bool
	// keepOpen leaves the dialog open after run (a Copy button).
	keepOpen bool
}

// keyDialog is a dialog that obeys the keyboard. Make it with
// newKeyDialog, build its content with its keys, then build and Show it.
type keyDialog struct {
	parent fyne.Window
	stack  *modalStack
	keys   *kit.DialogKeys
	dlg    *dialog.CustomDialog
	// content is what the dialog shows above its buttons.
	content fyne.CanvasObject

	actions []dialogAction
	buttons []*kit.DialogButton
	def     int // index of the default button, or -1

	// focus takes the keyboard when the dialog shows; nil leaves nothing
	// focused (the canvas then gets Esc and Enter).
	focus fyne.Focusable
	// onCancel runs when the dialog is cancelled (Esc, the cancel button,
	// or closed without an answer).
	onCancel func()
	// onClosed runs after it closed, whichever way.
	onClosed func()
	closed   bool
}

func newKeyDialog(parent fyne.Window, stack *modalStack) *keyDialog {
	k := &keyDialog{parent: parent, stack: stack, def: -1}
	k.keys = &kit.DialogKeys{Cancel: k.Cancel, Submit: k.Submit}
	return k
}

// Keys are what the widgets in the dialog hand Esc and Enter to.
func (k *keyDialog) Keys() *kit.DialogKeys { return k.keys }

// build makes the dialog with its content and buttons, in the order given
// (the desktop order: Cancel first, the default last).
func (k *keyDialog) build(title string, content fyne.CanvasObject, actions ...dialogAction) *keyDialog {
	k.actions, k.content = actions, content
	k.dlg = dialog.NewCustomWithoutButtons(title, content, k.parent)
	var row []fyne.CanvasObject
	for i, a := range actions {
		a := a
		icon := a.icon
		if icon == nil && a.isCancel {
			icon = theme.CancelIcon()
		}
		b := kit.NewDialogButton(a.label, icon, func() { k.press(a) }, k.keys)
		if a.isDefault {
			b.Importance = widget.HighImportance
			k.def = i
		}
		k.buttons = append(k.buttons, b)
		row = append(row, b)
	}
	if len(row) > 0 {
		k.dlg.SetButtons(row)
	}
	return k
}

// button is the button labelled label, or nil.
func (k *keyDialog) button(label string) *kit.DialogButton {
	for i, a := range k.actions {
		if a.label == label {
			return k.buttons[i]
		}
	}
	return nil
}

// Resize sets the dialog's size.
func (k *keyDialog) Resize(s fyne.Size) *keyDialog {
	k.dlg.Resize(s)
	return k
}

// Show puts the dialog in front and the keyboard in it; a dialog of a tab
// behind another waits until that tab is in front.
func (k *keyDialog) Show() {
	k.stack.push(k)
	if k.stack != nil && k.stack.held {
		return
	}
	k.resume()
}

func (k *keyDialog) suspend() { k.dlg.Hide() }

func (k *keyDialog) resume() {
	k.dlg.Show()
	if k.focus != nil {
		k.parent.Canvas().Focus(k.focus)
	} else {
		k.parent.Canvas().Unfocus()
	}
}

// press runs a button: the dialog closes first, so what the button does
// may open another.
func (k *keyDialog) press(a dialogAction) {
	if k.closed {
		return
	}
	if a.keepOpen {
		if a.run != nil {
			a.run()
		}
		return
	}
	k.close()
	if a.isCancel && k.onCancel != nil {
		k.onCancel()
	}
	if a.run != nil {
		a.run()
	}
	if k.onClosed != nil {
		k.onClosed()
	}
}

// Cancel closes the dialog as its cancel button does (Esc).
func (k *keyDialog) Cancel() {
	if k.closed {
		return
	}
	for _, a := range k.actions {
		if a.isCancel {
			k.press(a)
			return
		}
	}
	k.press(dialogAction{isCancel: true})
}

// Submit presses the default button, if it is enabled (Enter).
func (k *keyDialog) Submit() {
	if k.closed || k.def < 0 || k.buttons[k.def].Disabled() {
		return
	}
	k.press(k.actions[k.def])
}

// Close closes the dialog without running any of its buttons (the agent
// that asked went away).
func (k *keyDialog) Close() {
	if k.closed {
		return
	}
	k.close()
	if k.onClosed != nil {
		k.onClosed()
	}
}

func (k *keyDialog) close() {
	k.closed = true
	k.dlg.Hide()
	k.stack.remove(k)
}

// Open reports whether the dialog is still showing.
func (k *keyDialog) Open() bool { return !k.closed }

// fileModal puts Fyne's file dialog, the fallback where the platform has
// none, on the stack: Esc closes it when none of its own widgets has the
// focus.
type fileModal struct{ d *dialog.FileDialog }

func (f fileModal) Cancel() { f.d.Hide() }
func (f fileModal) Submit() {}

// suspend closes a file dialog as cancelled: Fyne's cannot be hidden and
// shown again.
func (f fileModal) suspend() { f.d.Hide() }
func (f fileModal) resume()  { f.d.Show() }

func (h *tabHost) showFileDialog(d *dialog.FileDialog) {
	m := fileModal{d}
	d.SetOnClosed(func() { h.modals.remove(m) })
	h.modals.push(m)
	if !h.modals.held { // else it shows when its tab comes to the front
		d.Show()
	}
}

// message shows a short message with one button, OK, which Enter and Esc
// both press.
func (h *tabHost) message(title, text string) {
	k := newKeyDialog(h.win, h.modals)
	label := widget.NewLabel(text)
	k.build(title, label, dialogAction{label: "OK", isDefault: true, isCancel: true})
	k.fitText(label, 480)
	k.Show()
}

// fitText makes the dialog width wide at most and as tall as label needs
// when its words wrap at that width. A wrapping label alone asks for the
// width of its longest word: the dialog would be a thin column.
func (k *keyDialog) fitText(label *widget.Label, width float32) {
	if label.MinSize().Width <= width-40 {
		return // one line
	}
	label.Wrapping = fyne.TextWrapWord
	label.Resize(fyne.NewSize(width-40, label.MinSize().Height))
	k.Resize(fyne.NewSize(width, k.dlg.MinSize().Height))
}

// showError reports err in a dialog.
// showError says what went wrong in a dialog, unless it only means the
// agent went away: the banner says that, once.
func (h *tabHost) showError(err error) {
	if model.AgentGone(err) {
		return
	}
	h.message("Error", sentence(err.Error()))
}

// sentence starts text with a capital letter and ends it with a full stop.
func sentence(text string) string {
	if text == "" {
		return text
	}
	r := []rune(text)
	if r[0] >= 'a' && r[0] <= 'z' {
		r[0] -= 'a' - 'A'
	}
	switch r[len(r)-1] {
	case '.', '!', '?', ':':
	default:
		r = append(r, '.')
	}
	return string(r)
}

// ask shows a question with buttons; the last one is the default (Enter)
// and a "Cancel" or "Close" one is what Esc presses.
func (h *tabHost) ask(title, text string, actions ...dialogAction) *keyDialog {
	k := newKeyDialog(h.win, h.modals)
	label := widget.NewLabel(text)
	k.build(title, label, actions...)
	k.fitText(label, 520)
	k.Show()
	return k
}
