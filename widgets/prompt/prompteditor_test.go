package prompt

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/widgettest"
)

type submitted struct {
	text string
	mode SubmitMode
}

func newTestEditor(t *testing.T) (*PromptEditor, *[]submitted) {
	t.Helper()
	test.NewTempApp(t)
	e := NewPromptEditor()
	var got []submitted
	e.OnSubmit = func(text string, mode SubmitMode) { got = append(got, submitted{text, mode}) }
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(360, 120)) // word wrapping in a tiny entry moves the cursor oddly
	w.Canvas().Focus(e)
	return e, &got
}

func key(e *PromptEditor, name fyne.KeyName) { e.TypedKey(&fyne.KeyEvent{Name: name}) }

// withHeld presses modifier keys around f the way the desktop driver does:
// KeyDown for each, f, KeyUp for each.
func withHeld(e *PromptEditor, f func(), mods ...fyne.KeyName) {
	for _, m := range mods {
		e.KeyDown(&fyne.KeyEvent{Name: m})
	}
	f()
	for _, m := range mods {
		e.KeyUp(&fyne.KeyEvent{Name: m})
	}
}

func TestPromptEditorEnterSends(t *testing.T) {
	e, got := newTestEditor(t)
	test.Type(e, "fix the bug")
	key(e, fyne.KeyReturn)
	if len(*got) != 1 || (*got)[0] != (submitted{"fix the bug", SubmitPrompt}) {
		t.Fatalf("submitted %+v", *got)
	}
	// The draft stays until the app says the agent took it.
	if e.Text() != "fix the bug" {
		t.Fatalf("draft lost on submit: %q", e.Text())
	}
	e.Clear()
	if e.Text() != "" {
		t.Fatalf("Clear left %q", e.Text())
	}
	key(e, fyne.KeyEnter) // the keypad's Enter sends too
	if len(*got) != 2 {
		t.Fatal("keypad Enter did not send")
	}
}

func TestPromptEditorShiftEnterAddsLine(t *testing.T) {
	e, got := newTestEditor(t)
	test.Type(e, "one")
	// Shift+Enter reaches the entry as TypedKey with Shift held: the
	// driver sends no shortcut for Shift alone.
	withHeld(e, func() { key(e, fyne.KeyReturn) }, desktop.KeyShiftLeft)
	test.Type(e, "two")
	// The same, with the modifier state read from the driver, which knows
	// of a Shift pressed before the editor had focus.
	e.modifiers = func() fyne.KeyModifier { return fyne.KeyModifierShift }
	key(e, fyne.KeyReturn)
	e.modifiers = nil
	test.Type(e, "three")
	if len(*got) != 0 {
		t.Fatalf("Shift+Enter submitted %+v", *got)
	}
	if e.Text() != "one\ntwo\nthree" {
		t.Fatalf("text = %q", e.Text())
	}
	key(e, fyne.KeyReturn)
	if len(*got) != 1 || (*got)[0].text != "one\ntwo\nthree" {
		t.Fatalf("submitted %+v", *got)
	}
}

func TestPromptEditorStreamingModes(t *testing.T) {
	altEnter := &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierAlt}
	for _, tc := range []struct {
		name      string
		streaming bool
		press     func(e *PromptEditor)
		want      SubmitMode
	}{
		{"idle Enter", false, func(e *PromptEditor) { key(e, fyne.KeyReturn) }, SubmitPrompt},
		{"idle Alt+Enter", false, func(e *PromptEditor) { e.TypedShortcut(altEnter) }, SubmitPrompt},
		{"streaming Enter", true, func(e *PromptEditor) { key(e, fyne.KeyReturn) }, SubmitSteer},
		// The desktop driver sends Enter with Alt as a shortcut...
		{"streaming Alt+Enter shortcut", true, func(e *PromptEditor) { e.TypedShortcut(altEnter) }, SubmitFollowUp},
		// ...but a driver that reports it as a key with Alt held works too.
		{"streaming Alt+Enter key", true, func(e *PromptEditor) {
			withHeld(e, func() { key(e, fyne.KeyReturn) }, desktop.KeyAltLeft)
		}, SubmitFollowUp},
		{"streaming Alt+Enter driver modifiers", true, func(e *PromptEditor) {
			e.modifiers = func() fyne.KeyModifier { return fyne.KeyModifierAlt }
			key(e, fyne.KeyReturn)
		}, SubmitFollowUp},
		{"streaming Ctrl+Enter", true, func(e *PromptEditor) {
			e.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
		}, SubmitSteer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, got := newTestEditor(t)
			e.SetStreaming(tc.streaming)
			test.Type(e, "go on")
			tc.press(e)
			if len(*got) != 1 || (*got)[0] != (submitted{"go on", tc.want}) {
				t.Fatalf("submitted %+v, want mode %d", *got, tc.want)
			}
			if e.Text() != "go on" {
				t.Fatalf("draft changed to %q", e.Text())
			}
		})
	}
}

func TestPromptEditorShortcuts(t *testing.T) {
	e, got := newTestEditor(t)
	var names []string
	e.OnShortcut = func(n string) { names = append(names, n) }
	escapes := 0
	e.OnEscape = func() { escapes++ }

	ctrl := func(k fyne.KeyName) {
		e.TypedShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault})
	}
	ctrl(fyne.KeyP)
	ctrl(fyne.KeyN)
	ctrl(fyne.KeyK)
	// Shift+Tab arrives as TypedKey(Tab) with Shift held, because the
	// editor accepts tabs.
	if !e.AcceptsTab() {
		t.Fatal("editor does not accept Tab: Shift+Tab would move the focus")
	}
	withHeld(e, func() { key(e, fyne.KeyTab) }, desktop.KeyShiftLeft)
	key(e, fyne.KeyEscape)

	want := []string{ShortcutCycleModel, ShortcutNewSession, ShortcutPalette, ShortcutCycleThinking}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("shortcuts = %v, want %v", names, want)
	}
	if escapes != 1 {
		t.Fatalf("escapes = %d", escapes)
	}
	if e.Text() != "" || len(*got) != 0 {
		t.Fatalf("shortcuts typed %q or submitted %v", e.Text(), *got)
	}

	// The entry's own shortcuts still work: select all, then type over it.
	test.Type(e, "draft")
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
	test.Type(e, "x")
	if e.Text() != "x" {
		t.Fatalf("select all + type gave %q", e.Text())
	}
}

func TestPromptEditorTabMovesFocus(t *testing.T) {
	test.NewTempApp(t)
	e := NewPromptEditor()
	other := widget.NewEntry()
	w := test.NewTempWindow(t, container.NewVBox(e, other))
	w.Canvas().Focus(e)
	key(e, fyne.KeyTab)
	if w.Canvas().Focused() != other {
		t.Fatalf("Tab left focus on %T", w.Canvas().Focused())
	}
	if e.Text() != "" {
		t.Fatalf("Tab typed %q", e.Text())
	}
}

func TestPromptEditorFocusLossForgetsModifiers(t *testing.T) {
	e, got := newTestEditor(t)
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.FocusLost() // Shift is released elsewhere
	e.FocusGained()
	test.Type(e, "a")
	key(e, fyne.KeyReturn)
	if len(*got) != 1 {
		t.Fatalf("Enter after focus change inserted a line: %q", e.Text())
	}
}

func TestPromptEditorRender(t *testing.T) {
	test.NewTempApp(t)
	e := NewPromptEditor()
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(360, 120))
	test.AssertRendersToMarkup(t, "prompt/editor_idle.xml", w.Canvas())
	e.SetStreaming(true)
	test.AssertRendersToMarkup(t, "prompt/editor_streaming.xml", w.Canvas())
}

// PageUp and PageDown, and Ctrl+Home and Ctrl+End, scroll the transcript
// while the editor has the focus; without a listener the entry keeps them.
func TestPromptEditorPassesScrollKeys(t *testing.T) {
	widgettest.NewTestApp(t)
	e := NewPromptEditor()
	w := test.NewTempWindow(t, e)
	w.Canvas().Focus(e)
	var got []fyne.KeyName
	e.OnScrollKey = func(k fyne.KeyName, _ fyne.KeyModifier) bool {
		got = append(got, k)
		return true
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageUp})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	e.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyHome, Modifier: fyne.KeyModifierControl})
	e.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEnd, Modifier: fyne.KeyModifierControl})
	if len(got) != 4 || got[0] != fyne.KeyPageUp || got[3] != fyne.KeyEnd {
		t.Fatalf("scroll keys passed on: %v", got)
	}
	test.Type(e, "abc")
	if e.Text() != "abc" {
		t.Fatalf("typing after the scroll keys gave %q", e.Text())
	}
}

// Up in an empty editor brings back the session's prompts, newest first;
// Down goes the other way and past the newest empties the editor; once the
// recalled text is edited, the arrows move the cursor again.
func TestPromptEditorRecallsEarlierPrompts(t *testing.T) {
	widgettest.NewTestApp(t)
	e := NewPromptEditor()
	test.NewTempWindow(t, e)
	e.SetHistory([]string{"first", "second", "third"})
	up := &fyne.KeyEvent{Name: fyne.KeyUp}
	down := &fyne.KeyEvent{Name: fyne.KeyDown}
	var got []string
	for _, k := range []*fyne.KeyEvent{up, up, up, up, down, down, down} {
		e.TypedKey(k)
		got = append(got, e.Text())
	}
	want := []string{"third", "second", "first", "first", "second", "third", ""}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("recalled %q, want %q", got, want)
	}
	e.TypedKey(up)
	e.TypedRune('!')
	e.TypedKey(up)
	if e.Text() == "second" || !strings.Contains(e.Text(), "!") {
		t.Fatalf("Up after an edit recalled instead of moving: %q", e.Text())
	}
	e.SetText("a draft")
	e.TypedKey(up)
	if e.Text() != "a draft" {
		t.Fatalf("Up replaced a draft with %q", e.Text())
	}
}

// TestPromptEditorCursorAtEndInRunes: a draft set with SetTextCursorAtEnd
// has the cursor after its last character however many bytes its letters
// take and however its lines wrap, so typing goes on at the end.
func TestPromptEditorCursorAtEndInRunes(t *testing.T) {
	e, _ := newTestEditor(t)
	for _, draft := range []string{
		"naïve café ✓",
		"Grüße\n\n日本語のテキスト — ünïcødé",
		// Longer than the 360 px editor is wide: it wraps.
		"Ein sehr langer Satz über Änderungen, der in diesem schmalen Editor ganz sicher umbricht: äöü ß ✓ 🎉",
		"",
	} {
		e.SetTextCursorAtEnd(draft)
		if got, want := e.CursorOffset(), len([]rune(draft)); got != want {
			t.Fatalf("%q: cursor at character %d, want %d (the end)", draft, got, want)
		}
		if lines := strings.Count(draft, "\n"); len(draft) > 80 && e.CursorRow <= lines {
			t.Fatalf("%q did not wrap (cursor row %d): the test lost its point", draft, e.CursorRow)
		}
		test.Type(e, "!")
		if e.Text() != draft+"!" {
			t.Fatalf("typed after %q: got %q", draft, e.Text())
		}
	}
}

// TestPromptEditorInsertAtCursor: an insertion goes in where the cursor is,
// counted in characters, never over a selection, and Ctrl+Z or UndoInsert
// takes it out again with the draft as it was.
func TestPromptEditorInsertAtCursor(t *testing.T) {
	e, _ := newTestEditor(t)
	e.SetTextCursorAtEnd("äöü look at  please")
	for range len([]rune(" please")) {
		key(e, fyne.KeyLeft)
	}
	e.InsertAtCursor("@notes.txt")
	if got := e.Text(); got != "äöü look at @notes.txt please" {
		t.Fatalf("inserted into %q", got)
	}
	if got, want := e.CursorOffset(), len([]rune("äöü look at @notes.txt")); got != want {
		t.Fatalf("cursor at %d after the insertion, want %d", got, want)
	}
	e.UndoInsert()
	if got := e.Text(); got != "äöü look at  please" {
		t.Fatalf("undo left %q", got)
	}
	// A selection stays: the insertion goes after it.
	e.SetTextCursorAtEnd("keep this")
	withHeld(e, func() {
		for range 4 {
			key(e, fyne.KeyLeft)
		}
	}, desktop.KeyShiftLeft)
	if e.SelectedText() != "this" {
		t.Fatalf("selected %q", e.SelectedText())
	}
	e.InsertAtCursor(" @a.go")
	if got := e.Text(); got != "keep this @a.go" {
		t.Fatalf("inserted over the selection: %q", got)
	}
	e.TypedShortcut(&fyne.ShortcutUndo{})
	if got := e.Text(); got != "keep this" {
		t.Fatalf("Ctrl+Z left %q", got)
	}
}
