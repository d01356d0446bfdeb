package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Dialogs that obey the keyboard: Esc cancels, Enter presses the default
// button. Fyne's own widgets keep keys to themselves once they have the
// focus (an entry, a check box, a button that a click or Tab put it on),
// and Fyne's dialogs give Esc and Enter no meaning at all; so a dialog
// built from them ignores both as soon as anything in it is focused. The
// widgets here hand the two keys to their dialog's DialogKeys.

// DialogKeys are a dialog's answers to Esc and Enter, shared by the
// widgets in it. Either may be nil.
type DialogKeys struct {
	// Cancel closes the dialog as its Cancel button would.
	Cancel func()
	// Submit presses the default button, if it is enabled.
	Submit func()
}

// Escape runs Cancel and reports whether there was one to run, so that an
// unanswered Esc can go on to whoever else handles it.
func (k *DialogKeys) Escape() bool {
	if k == nil || k.Cancel == nil {
		return false
	}
	k.Cancel()
	return true
}

func (k *DialogKeys) submit() bool {
	if k == nil || k.Submit == nil {
		return false
	}
	k.Submit()
	return true
}

// Key handles Esc and Enter for a widget of a dialog; it reports whether
// it did.
func (k *DialogKeys) Key(ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		return k.Escape()
	case fyne.KeyReturn, fyne.KeyEnter:
		return k.submit()
	}
	return false
}

// isCtrlEnter is Ctrl+Enter (Cmd+Enter on macOS), which submits a dialog
// from a multi-line entry, where Enter starts a new line.
func isCtrlEnter(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	return ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		(cs.Modifier == fyne.KeyModifierControl || cs.Modifier == fyne.KeyModifierShortcutDefault)
}

// DialogEntry is an entry in a dialog: Esc cancels the dialog; Enter
// submits it from a one-line entry, Ctrl+Enter from a multi-line one
// (where Enter starts a new line).
type DialogEntry struct {
	widget.Entry
	Keys *DialogKeys
}

// NewDialogEntry returns a one-line entry.
func NewDialogEntry(keys *DialogKeys) *DialogEntry {
	e := &DialogEntry{Keys: keys}
	e.ExtendBaseWidget(e)
	return e
}

// NewDialogMultiLineEntry returns a multi-line entry that wraps words.
func NewDialogMultiLineEntry(keys *DialogKeys) *DialogEntry {
	e := &DialogEntry{Keys: keys}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab is false: Tab moves to the dialog's next field even from a
// multi-line entry, as in any form, rather than typing a tab.
func (e *DialogEntry) AcceptsTab() bool { return false }

// TypedKey gives Esc, and Enter on one line, to the dialog.
func (e *DialogEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape:
		if e.Keys.Escape() {
			return
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if !e.MultiLine && e.Keys.submit() {
			return
		}
	}
	e.Entry.TypedKey(ev)
}

// TypedShortcut submits the dialog on Ctrl+Enter.
func (e *DialogEntry) TypedShortcut(s fyne.Shortcut) {
	if isCtrlEnter(s) && e.Keys.submit() {
		return
	}
	e.Entry.TypedShortcut(s)
}

// DialogCheck is a check box in a dialog: Space toggles it, Esc and Enter
// go to the dialog.
type DialogCheck struct {
	widget.Check
	Keys *DialogKeys
}

// NewDialogCheck returns an unchecked box.
func NewDialogCheck(label string, keys *DialogKeys) *DialogCheck {
	c := &DialogCheck{Keys: keys}
	c.Text = label
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey gives Esc and Enter to the dialog.
func (c *DialogCheck) TypedKey(ev *fyne.KeyEvent) {
	if c.Keys.Key(ev) {
		return
	}
	c.Check.TypedKey(ev)
}

// TypedShortcut submits the dialog on Ctrl+Enter.
func (c *DialogCheck) TypedShortcut(s fyne.Shortcut) {
	if isCtrlEnter(s) {
		c.Keys.submit()
	}
}

// DialogButton is a button in a dialog. Focused (with Tab), Enter or Space
// presses it, as on any desktop; Esc cancels the dialog.
type DialogButton struct {
	widget.Button
	Keys *DialogKeys
}

// NewDialogButton returns a button; icon may be nil.
func NewDialogButton(label string, icon fyne.Resource, tapped func(), keys *DialogKeys) *DialogButton {
	b := &DialogButton{Keys: keys}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey presses the button on Enter and cancels the dialog on Esc.
func (b *DialogButton) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape:
		b.Keys.Escape()
	case fyne.KeyReturn, fyne.KeyEnter:
		if !b.Disabled() && b.OnTapped != nil {
			b.Tapped(nil)
		}
	default:
		b.Button.TypedKey(ev)
	}
}

// TypedShortcut submits the dialog on Ctrl+Enter.
func (b *DialogButton) TypedShortcut(s fyne.Shortcut) {
	if isCtrlEnter(s) {
		b.Keys.submit()
	}
}

var (
	_ fyne.Shortcutable = (*DialogCheck)(nil)
	_ fyne.Shortcutable = (*DialogButton)(nil)
)

// ModifierOf is the modifier a modifier key's own KeyDown and KeyUp stand
// for (Shift for either Shift key), or 0 for any other key: widgets that
// must know which modifiers are held track them with it.
func ModifierOf(k fyne.KeyName) fyne.KeyModifier {
	switch k {
	case desktop.KeyShiftLeft, desktop.KeyShiftRight:
		return fyne.KeyModifierShift
	case desktop.KeyControlLeft, desktop.KeyControlRight:
		return fyne.KeyModifierControl
	case desktop.KeyAltLeft, desktop.KeyAltRight:
		return fyne.KeyModifierAlt
	case desktop.KeySuperLeft, desktop.KeySuperRight:
		return fyne.KeyModifierSuper
	}
	return 0
}
