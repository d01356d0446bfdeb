package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// showOutputViewer shows a tool's output file as text: read-only, to read,
// select and copy. Esc and Close close it.
func (w *Tab) showOutputViewer(out shownOutput) *keyDialog {
	k := newKeyDialog(w.win, w.modals)
	text := newReadOnlyText(out.text, k.Keys())
	k.focus = text
	head := widget.NewLabel(out.path)
	head.Truncation = fyne.TextTruncateEllipsis
	top := container.NewVBox(head)
	if note := out.cutNote(); note != "" {
		cut := widget.NewLabel(note)
		cut.Importance = widget.WarningImportance
		top.Add(cut)
	}
	k.build(out.name, container.NewBorder(top, nil, nil, nil, text),
		dialogAction{label: "Copy path", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			w.app.Clipboard().SetContent(out.path)
			w.toasts.Show("Path copied", model.NoticeInfo)
		}},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	size := fyne.NewSize(880, 620)
	if c := w.win.Canvas().Size(); c.Width > 0 && c.Height > 0 {
		size = size.Min(fyne.NewSize(c.Width-40, c.Height-40))
	}
	k.Resize(size)
	k.Show()
	return k
}

// readOnlyText is a multi-line entry that cannot be changed: the keyboard
// moves the cursor and the selection, copies and selects all; Esc and Enter
// go to the dialog. Fyne's disabled entry cannot be selected from, hence
// this.
type readOnlyText struct {
	kit.DialogEntry
	text string
}

func newReadOnlyText(text string, keys *kit.DialogKeys) *readOnlyText {
	t := &readOnlyText{text: text}
	t.Keys = keys
	t.MultiLine = true
	t.Wrapping = fyne.TextWrapOff
	t.TextStyle = fyne.TextStyle{Monospace: true}
	t.Text = text
	t.ExtendBaseWidget(t)
	// Nothing here changes the text; should a path in Fyne still do, it is
	// put back.
	t.OnChanged = func(s string) {
		if s != t.text {
			t.SetText(t.text)
		}
	}
	return t
}

// TypedRune types nothing.
func (t *readOnlyText) TypedRune(rune) {}

// TypedKey moves; Esc and Enter go to the dialog; keys that edit do
// nothing.
func (t *readOnlyText) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
		t.Keys.Key(ev)
	case fyne.KeyUp, fyne.KeyDown, fyne.KeyLeft, fyne.KeyRight,
		fyne.KeyHome, fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown:
		t.Entry.TypedKey(ev)
	}
}

// TypedShortcut copies, selects all, moves by words; Ctrl+Enter closes.
// Whatever else, cut, paste, undo, deleting a word, does nothing.
func (t *readOnlyText) TypedShortcut(s fyne.Shortcut) {
	switch s := s.(type) {
	case *fyne.ShortcutCopy, *fyne.ShortcutSelectAll:
		t.Entry.TypedShortcut(s)
	case fyne.KeyboardShortcut:
		switch k := s.Key(); {
		case movesOnly(k):
			t.Entry.TypedShortcut(s)
		case k == fyne.KeyReturn || k == fyne.KeyEnter:
			t.Keys.Key(&fyne.KeyEvent{Name: k})
		}
	}
}

// movesOnly are the keys whose shortcuts (Ctrl+Left, Shift+End…) move
// the cursor or the selection.
func movesOnly(k fyne.KeyName) bool {
	switch k {
	case fyne.KeyUp, fyne.KeyDown, fyne.KeyLeft, fyne.KeyRight,
		fyne.KeyHome, fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown:
		return true
	}
	return false
}
