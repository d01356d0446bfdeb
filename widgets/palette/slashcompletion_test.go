package palette

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/prompt"
	"knightcode.ai/desktop/widgets/widgettest"
)

// newTestSlash wires a completion to an editor the way the app does.
func newTestSlash(t *testing.T) (*SlashCompletion, *prompt.PromptEditor, fyne.Canvas, *[]string) {
	test.NewTempApp(t)
	ed := prompt.NewPromptEditor()
	var sent []string
	ed.OnSubmit = func(text string, _ prompt.SubmitMode) { sent = append(sent, text) }
	w := test.NewTempWindow(t, container.NewBorder(nil, ed, nil, nil, widget.NewLabel("chat")))
	w.Resize(fyne.NewSize(640, 420))
	c := w.Canvas()
	s := NewSlashCompletion()
	s.SetCommands(sampleSlash())
	s.SetEditor(ed)
	ed.OnChanged = func(text string) {
		s.Update(c, text, fyne.CurrentApp().Driver().AbsolutePositionForObject(ed))
	}
	s.OnAccept = func(text string) {
		ed.SetText(text)
		ed.CursorColumn = len([]rune(text))
	}
	c.Focus(ed)
	return s, ed, c, &sent
}

func TestSlashCompletionLooks(t *testing.T) {
	s, _, c, _ := newTestSlash(t)
	widgettest.TypeFocused(t, c, "/c")
	if !s.Visible() {
		t.Fatal("not shown for \"/c\"")
	}
	test.AssertRendersToMarkup(t, "slash/c.xml", c)
	widgettest.TypeFocused(t, c, "om")
	test.AssertRendersToMarkup(t, "slash/com.xml", c)
}

func TestSlashCompletionKeys(t *testing.T) {
	s, ed, c, sent := newTestSlash(t)

	// The pop-up takes the keyboard, and typing still reaches the editor.
	widgettest.TypeFocused(t, c, "/")
	if !s.Visible() || len(s.hits) != len(sampleSlash()) || c.Focused() != s.panel {
		t.Fatalf("\"/\": visible %v, %d hits, focus %T", s.Visible(), len(s.hits), c.Focused())
	}
	widgettest.TypeFocused(t, c, "co")
	if ed.Text() != "/co" || len(s.hits) != 4 {
		t.Fatalf("editor %q, %d hits", ed.Text(), len(s.hits))
	}
	widgettest.PressKey(t, c, fyne.KeyBackspace)
	if ed.Text() != "/c" || !s.Visible() {
		t.Fatalf("Backspace: editor %q", ed.Text())
	}
	widgettest.TypeFocused(t, c, "o")

	// Down, then Tab puts "/compact " in the editor and gives the
	// keyboard back.
	widgettest.PressKey(t, c, fyne.KeyDown)
	widgettest.PressKey(t, c, fyne.KeyTab)
	if ed.Text() != "/compact " || s.Visible() || c.Focused() != ed {
		t.Fatalf("Tab: editor %q, visible %v, focus %T", ed.Text(), s.Visible(), c.Focused())
	}
	if len(*sent) != 0 {
		t.Fatalf("accepting sent %v", *sent)
	}

	// Enter accepts too; it does not send.
	ed.SetText("")
	widgettest.TypeFocused(t, c, "/mo")
	widgettest.PressKey(t, c, fyne.KeyReturn)
	if ed.Text() != "/model " || len(*sent) != 0 {
		t.Fatalf("Enter: editor %q, sent %v", ed.Text(), *sent)
	}
	// With the name complete and a space typed, Enter is the editor's.
	widgettest.PressKey(t, c, fyne.KeyReturn)
	if len(*sent) != 1 || (*sent)[0] != "/model " {
		t.Fatalf("sent %v", *sent)
	}

	// Esc hides without reaching the editor (where it would abort a run).
	escapes := 0
	ed.OnEscape = func() { escapes++ }
	ed.SetText("")
	widgettest.TypeFocused(t, c, "/re")
	widgettest.PressKey(t, c, fyne.KeyEscape)
	if s.Visible() || escapes != 0 || ed.Text() != "/re" {
		t.Fatalf("Esc: visible %v, escapes %d, editor %q", s.Visible(), escapes, ed.Text())
	}

	// Shift+Enter is the editor's newline, which ends the completion.
	widgettest.TypeFocused(t, c, "v")
	if !s.Visible() {
		t.Fatal("typing after Esc did not show it again")
	}
	f := c.Focused().(desktop.Keyable)
	f.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	widgettest.PressKey(t, c, fyne.KeyReturn)
	f.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if ed.Text() != "/rev\n" || s.Visible() || len(*sent) != 1 {
		t.Fatalf("Shift+Enter: editor %q, visible %v, sent %v", ed.Text(), s.Visible(), *sent)
	}

	// Shortcuts reach the editor: Ctrl+K still opens the palette.
	var shortcuts []string
	ed.OnShortcut = func(name string) { shortcuts = append(shortcuts, name) }
	ed.SetText("")
	widgettest.TypeFocused(t, c, "/")
	c.Focused().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyK, Modifier: fyne.KeyModifierShortcutDefault})
	if len(shortcuts) != 1 || shortcuts[0] != prompt.ShortcutPalette {
		t.Fatalf("shortcuts %v", shortcuts)
	}

	// Nothing matches, or not a command: hidden.
	widgettest.TypeFocused(t, c, "zzz")
	if s.Visible() {
		t.Fatal("shown with no match")
	}
	ed.SetText("hello /c")
	if s.Visible() {
		t.Fatal("shown for text that is not a command")
	}
}

func TestSlashCompletionAPI(t *testing.T) {
	s, ed, c, _ := newTestSlash(t)
	if _, ok := s.Accept(); ok {
		t.Fatal("accepted while hidden")
	}
	ed.SetText("/")
	s.Move(-1) // stays on the first
	s.Move(2)
	if text, ok := s.Accept(); !ok || text != "/model " || s.Visible() {
		t.Fatalf("Accept gave %q, %v", text, ok)
	}
	// New text starts at the best match; the same text again keeps the
	// user's place.
	ed.SetText("/")
	s.Move(3)
	ed.SetText("/co")
	s.Move(1)
	s.Update(c, "/co", fyne.NewPos(0, 300))
	if text, _ := s.Accept(); text != "/compact " {
		t.Fatalf("selection after narrowing: %q", text)
	}
	// A click accepts.
	var got []string
	s.OnAccept = func(text string) { got = append(got, text) }
	ed.SetText("/n")
	for _, o := range test.LaidOutObjects(s.panel.list) {
		if r, ok := o.(*paletteRow); ok && r.Visible() && r.item.Title == "/new" {
			test.Tap(r)
		}
	}
	if len(got) != 1 || got[0] != "/new " || s.Visible() {
		t.Fatalf("click gave %v", got)
	}
}

// The list opens above the anchor, or below it when there is more room
// there, and never leaves the window.
func TestSlashCompletionPlacement(t *testing.T) {
	s, _, c, _ := newTestSlash(t)
	s.Update(c, "/", fyne.NewPos(10, 380))
	top, bottom := s.panel.Position().Y, s.panel.Position().Y+s.panel.Size().Height
	if bottom > 380 || top < 0 {
		t.Fatalf("above: %v..%v", top, bottom)
	}
	s.Update(c, "/", fyne.NewPos(10, 30))
	top, bottom = s.panel.Position().Y, s.panel.Position().Y+s.panel.Size().Height
	if top < 30 || bottom > c.Size().Height {
		t.Fatalf("below: %v..%v", top, bottom)
	}
}

// A command the agent refuses here is greyed with its reason, after the
// commands that match as well, and Enter on it puts nothing in the editor.
func TestSlashCompletionGreysARefusedCommand(t *testing.T) {
	s, ed, c, _ := newTestSlash(t)
	cmds := append(sampleSlash(), model.PaletteItem{ID: "cmd:llama", Title: "/llama", Detail: "Manage llama.cpp router models",
		Source: "extension", Unavailable: "works only in the agent's terminal UI"})
	s.SetCommands(cmds)
	widgettest.TypeFocused(t, c, "/")
	listed := s.Listed()
	if last := listed[len(listed)-1]; last.ID != "cmd:llama" {
		t.Fatalf("\"/\" lists %q last", last.Title)
	}
	widgettest.TypeFocused(t, c, "llam")
	if l := s.Listed(); len(l) != 1 || l[0].ID != "cmd:llama" {
		t.Fatalf("\"/llam\" lists %v", l)
	}
	widgettest.PressKey(t, c, fyne.KeyReturn)
	if ed.Text() != "/llam" || !s.Visible() {
		t.Fatalf("Enter on the greyed /llama: editor %q, visible %v", ed.Text(), s.Visible())
	}
}
