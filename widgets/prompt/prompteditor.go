package prompt

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// SubmitMode says what a submitted prompt is for.
type SubmitMode int

const (
	// SubmitPrompt starts a run: the agent is idle.
	SubmitPrompt SubmitMode = iota
	// SubmitSteer interrupts the running agent with a new instruction.
	SubmitSteer
	// SubmitFollowUp queues a message for when the agent is done.
	SubmitFollowUp
)

// Names PromptEditor passes to OnShortcut: window shortcuts that must work
// while the editor has the focus, where the window's own canvas shortcuts
// never see them.
const (
	ShortcutCycleModel    = "cycle-model"    // Ctrl+P
	ShortcutCycleThinking = "cycle-thinking" // Shift+Tab
	ShortcutNewSession    = "new-session"    // Ctrl+N
	ShortcutPalette       = "palette"        // Ctrl+K
)

// PromptEditor is the multi-line message editor: Enter sends, Shift+Enter
// starts a new line. While the agent streams, Enter steers and Alt+Enter
// queues a follow-up. Esc calls OnEscape.
//
// The editor never clears itself on submit: sending can fail, and the
// draft must survive that. The owner calls Clear once the agent accepted it.
type PromptEditor struct {
	widget.Entry

	OnSubmit   func(text string, mode SubmitMode)
	OnEscape   func()
	OnShortcut func(name string)
	// OnPaste runs before a paste; returning true means it took the
	// clipboard's content itself (an image), so no text is pasted.
	OnPaste func() bool
	// OnOtherShortcut gets the shortcuts the editor does not use, so the
	// window's menu shortcuts work while the editor has the focus.
	OnOtherShortcut func(fyne.Shortcut) bool
	// OnScrollKey gets PageUp and PageDown, and Home and End with Ctrl:
	// they scroll the transcript, as in a chat program, while the editor
	// has the focus. It reports whether it used the key.
	OnScrollKey func(key fyne.KeyName, mods fyne.KeyModifier) bool
	// OnCopy gets Ctrl+C when no text of the draft is selected: the
	// transcript's selection is copied then. It reports whether it copied.
	OnCopy func() bool

	// history is the session's earlier prompts, oldest first, which Up
	// in an empty editor brings back; recall is the one shown (an index
	// in history, or -1) and recalled its text, so that an edit of it ends
	// recalling.
	history  []string
	recall   int
	recalled string
	// RunOnUI hands the idle timer's work to the UI goroutine; nil means
	// kit.Do. The app passes its own, which does nothing once Fyne's loop
	// has ended.
	RunOnUI func(func())

	streaming bool
	// held is the modifier state seen through KeyDown/KeyUp, for drivers
	// that cannot say which modifiers are down (the test driver).
	held fyne.KeyModifier
	// modifiers reports the modifiers held now; nil asks the driver.
	modifiers func() fyne.KeyModifier
	// blink stops the cursor's blinking after CursorBlinkTimeout without
	// input (cursorblink.go).
	blink cursorBlink
}

var (
	_ fyne.Tabbable     = (*PromptEditor)(nil)
	_ fyne.Shortcutable = (*PromptEditor)(nil)
	_ desktop.Keyable   = (*PromptEditor)(nil)
	_ desktop.Mouseable = (*PromptEditor)(nil)
)

// NewPromptEditor returns an empty editor.
func NewPromptEditor() *PromptEditor {
	e := &PromptEditor{recall: -1}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	e.SetMinRowsVisible(3)
	e.updatePlaceHolder()
	return e
}

// Text returns the draft.
func (e *PromptEditor) Text() string { return e.Entry.Text }

// Clear empties the editor after the agent accepted what was sent.
func (e *PromptEditor) Clear() { e.SetText("") }

// SetText replaces the draft; a solid (idle) cursor stays solid.
func (e *PromptEditor) SetText(text string) { e.keepStill(func() { e.Entry.SetText(text) }) }

// SetTextCursorAtEnd replaces the draft and puts the cursor after its last
// character, as if it had just been typed: a draft given back, a completed
// command, text from an extension. The entry counts the cursor in
// characters on rows as wrapped on screen, not in bytes or lines; Page Down
// is its own way to the end.
func (e *PromptEditor) SetTextCursorAtEnd(text string) {
	e.keepStill(func() {
		e.Entry.SetText(text)
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	})
}

// InsertAtCursor types text in at the cursor, after the selection if there
// is one (nothing the user typed is replaced), and leaves the cursor after
// it. Ctrl+Z takes it out again, as a paste; so does UndoInsert while the
// draft has not changed since.
func (e *PromptEditor) InsertAtCursor(text string) {
	e.keepStill(func() {
		e.CollapseSelection()
		e.Entry.TypedShortcut(&fyne.ShortcutPaste{Clipboard: textClipboard(text)})
	})
}

// CollapseSelection ends a selection with the cursor at its end, the text
// kept.
func (e *PromptEditor) CollapseSelection() {
	if e.SelectedText() != "" {
		// Right without Shift does that.
		e.keepStill(func() { e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight}) })
	}
}

// UndoInsert takes back the last change to the draft, as Ctrl+Z does.
func (e *PromptEditor) UndoInsert() { e.keepStill(e.Entry.Undo) }

// CursorOffset is the cursor's place in the draft, in characters.
func (e *PromptEditor) CursorOffset() int { return e.CursorTextOffset() }

// textClipboard is a clipboard holding one text, so an insertion goes
// through the entry's paste: at the cursor, undoable.
type textClipboard string

func (c textClipboard) Content() string   { return string(c) }
func (c textClipboard) SetContent(string) {}

// Append adds text at the end of the draft; a solid cursor stays solid.
func (e *PromptEditor) Append(text string) { e.keepStill(func() { e.Entry.Append(text) }) }

// Refresh repaints the editor. While the cursor is solid it stops the blink
// again, should anything have restarted it (a theme change refreshes the
// entry's inner content, which starts it, before the editor itself).
func (e *PromptEditor) Refresh() {
	if b := &e.blink; b.solid && b.focused && !b.applying {
		e.stopBlinking()
		return
	}
	e.Entry.Refresh()
}

// SetStreaming switches Enter between sending and steering; while the
// agent streams the cursor is solid (holdCursor).
func (e *PromptEditor) SetStreaming(streaming bool) {
	if e.streaming == streaming {
		return
	}
	e.streaming = streaming
	e.updatePlaceHolder()
	e.holdCursor(streaming)
}

// Streaming reports what SetStreaming last set.
func (e *PromptEditor) Streaming() bool { return e.streaming }

func (e *PromptEditor) updatePlaceHolder() {
	if e.streaming {
		e.SetPlaceHolder("Steer the agent…")
	} else {
		e.SetPlaceHolder("Ask KnightCode…")
	}
}

// Submit sends the draft as a send button would: a prompt, or a steer while
// streaming.
func (e *PromptEditor) Submit() {
	e.submit(0)
}

func (e *PromptEditor) submit(mods fyne.KeyModifier) {
	mode := SubmitPrompt
	if e.streaming {
		mode = SubmitSteer
		if mods&fyne.KeyModifierAlt != 0 {
			mode = SubmitFollowUp
		}
	}
	if e.OnSubmit != nil {
		e.OnSubmit(e.Entry.Text, mode)
	}
}

// AcceptsTab lets Tab and Shift+Tab reach the editor, which would otherwise
// move the focus before Shift+Tab could cycle the thinking level.
func (e *PromptEditor) AcceptsTab() bool { return true }

// TypedKey handles the keys the chat gives meaning to and leaves the rest to
// the entry.
func (e *PromptEditor) TypedKey(ev *fyne.KeyEvent) {
	e.input(func() { e.typedKey(ev) })
}

func (e *PromptEditor) typedKey(ev *fyne.KeyEvent) {
	mods := e.currentModifiers()
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if mods&fyne.KeyModifierShift != 0 {
			e.Entry.TypedKey(ev) // the entry inserts a newline: OnSubmitted is unset
			return
		}
		e.submit(mods)
	case fyne.KeyEscape:
		if e.OnEscape != nil {
			e.OnEscape()
		}
	case fyne.KeyUp, fyne.KeyDown:
		if !e.recallStep(ev.Name == fyne.KeyUp) {
			e.Entry.TypedKey(ev)
		}
	case fyne.KeyPageUp, fyne.KeyPageDown:
		if e.OnScrollKey == nil || !e.OnScrollKey(ev.Name, mods) {
			e.Entry.TypedKey(ev)
		}
	case fyne.KeyTab:
		if mods&fyne.KeyModifierShift != 0 {
			e.shortcut(ShortcutCycleThinking)
			return
		}
		// Plain Tab leaves the editor, as in any form; a prompt rarely
		// wants a literal tab and pasting keeps those.
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
			c.FocusNext()
		}
	default:
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut catches what the desktop driver sends as shortcuts: Enter
// with Alt or Ctrl held (any modifier but Shift makes a key a shortcut) and
// the window shortcuts.
func (e *PromptEditor) TypedShortcut(s fyne.Shortcut) {
	e.input(func() { e.typedShortcut(s) })
}

func (e *PromptEditor) typedShortcut(s fyne.Shortcut) {
	if _, paste := s.(*fyne.ShortcutPaste); paste && e.OnPaste != nil && e.OnPaste() {
		return
	}
	if _, cp := s.(*fyne.ShortcutCopy); cp && e.SelectedText() == "" && e.OnCopy != nil && e.OnCopy() {
		return
	}
	if cs, ok := s.(*desktop.CustomShortcut); ok {
		switch cs.KeyName {
		case fyne.KeyReturn, fyne.KeyEnter:
			if cs.Modifier&fyne.KeyModifierShift != 0 && cs.Modifier&fyne.KeyModifierAlt == 0 {
				e.Entry.TypedKey(&fyne.KeyEvent{Name: cs.KeyName})
				return
			}
			e.submit(cs.Modifier)
			return
		case fyne.KeyTab:
			if cs.Modifier == fyne.KeyModifierShift {
				e.shortcut(ShortcutCycleThinking)
				return
			}
		}
		if cs.Modifier == fyne.KeyModifierShortcutDefault || cs.Modifier == fyne.KeyModifierControl {
			switch cs.KeyName {
			case fyne.KeyHome, fyne.KeyEnd:
				if e.OnScrollKey != nil && e.OnScrollKey(cs.KeyName, cs.Modifier) {
					return
				}
			case fyne.KeyP:
				e.shortcut(ShortcutCycleModel)
				return
			case fyne.KeyN:
				e.shortcut(ShortcutNewSession)
				return
			case fyne.KeyK:
				e.shortcut(ShortcutPalette)
				return
			}
		}
		if e.OnOtherShortcut != nil && e.OnOtherShortcut(cs) {
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

func (e *PromptEditor) shortcut(name string) {
	if e.OnShortcut != nil {
		e.OnShortcut(name)
	}
}

// TypedRune types a character.
func (e *PromptEditor) TypedRune(r rune) {
	e.input(func() { e.Entry.TypedRune(r) })
}

// MouseDown is a click: the cursor blinks again.
func (e *PromptEditor) MouseDown(m *desktop.MouseEvent) {
	e.input(func() { e.Entry.MouseDown(m) })
}

// MouseUp ends a click or a drag.
func (e *PromptEditor) MouseUp(m *desktop.MouseEvent) {
	e.input(func() { e.Entry.MouseUp(m) })
}

// KeyDown tracks modifiers for drivers that do not report them.
func (e *PromptEditor) KeyDown(ev *fyne.KeyEvent) {
	e.held |= kit.ModifierOf(ev.Name)
	e.input(func() { e.Entry.KeyDown(ev) })
}

// KeyUp tracks modifiers for drivers that do not report them.
func (e *PromptEditor) KeyUp(ev *fyne.KeyEvent) {
	e.held &^= kit.ModifierOf(ev.Name)
	e.Entry.KeyUp(ev)
}

// FocusGained starts the blink and its count, or paints the cursor solid
// when blinking is off.
func (e *PromptEditor) FocusGained() {
	b := &e.blink
	b.focused = true
	if b.off || b.still {
		b.solid = true
		e.withoutAnimations(e.Entry.FocusGained)
		if b.still {
			b.last = b.now()
		}
		return
	}
	b.solid = false
	e.Entry.FocusGained()
	e.wake()
}

// FocusLost forgets held modifiers: their release goes elsewhere. The
// entry stops its blink and hides the cursor; the idle timer stops too.
func (e *PromptEditor) FocusLost() {
	e.held = 0
	b := &e.blink
	b.focused = false
	b.solid = false
	e.stopTimer()
	e.Entry.FocusLost()
}

// currentModifiers prefers the desktop driver's own record, which sees keys
// pressed before the editor had the focus; the test driver has none.
func (e *PromptEditor) currentModifiers() fyne.KeyModifier {
	if e.modifiers != nil {
		return e.modifiers()
	}
	if a := fyne.CurrentApp(); a != nil {
		if d, ok := a.Driver().(desktop.Driver); ok {
			return d.CurrentKeyModifiers()
		}
	}
	return e.held
}

// SetHistory gives the editor the session's earlier prompts, oldest first,
// for Up and Down to bring back.
func (e *PromptEditor) SetHistory(prompts []string) {
	e.history = prompts
	if e.recall >= len(prompts) {
		e.recall = -1
	}
}

// recallStep shows the prompt before (older) or after the one recalled,
// when the editor is empty or still shows a recalled prompt unchanged. It
// reports whether it did; otherwise the arrow moves the cursor.
func (e *PromptEditor) recallStep(older bool) bool {
	recalling := e.recall >= 0 && e.Entry.Text == e.recalled
	if !recalling && (e.Entry.Text != "" || !older) {
		e.recall = -1
		return false
	}
	next := len(e.history) - 1
	if recalling {
		next = e.recall - 1
		if !older {
			next = e.recall + 1
		}
	}
	switch {
	case next < 0:
		return true // the oldest stays
	case next >= len(e.history):
		e.recall, e.recalled = -1, ""
		e.SetText("")
		return true
	}
	e.recall, e.recalled = next, e.history[next]
	e.SetTextCursorAtEnd(e.recalled)
	return true
}
