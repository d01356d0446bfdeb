package app

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// press types a key as the desktop driver delivers it: to the focused
// widget, or to the canvas when nothing has the focus.
func press(w *Tab, name fyne.KeyName) {
	onUI(func() {
		ev := &fyne.KeyEvent{Name: name}
		if f := w.win.Canvas().Focused(); f != nil {
			f.TypedKey(ev)
			return
		}
		if h := w.win.Canvas().OnTypedKey(); h != nil {
			h(ev)
		}
	})
}

// pressCtrlEnter is Ctrl+Enter, which the driver sends as a shortcut.
func pressCtrlEnter(w *Tab) {
	onUI(func() {
		sc := &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl}
		if f, ok := w.win.Canvas().Focused().(fyne.Shortcutable); ok {
			f.TypedShortcut(sc)
		}
	})
}

func typeInto(w *Tab, text string) {
	onUI(func() {
		if f := w.win.Canvas().Focused(); f != nil {
			test.Type(f, text)
		}
	})
}

func dialogOpen(w *Tab) (open bool) {
	onUI(func() { open = w.modals.top() != nil })
	return open
}

// dialogFocusables lists what Tab reaches in the dialog in front, starting
// with what has the focus.
func dialogFocusables(w *Tab) []fyne.Focusable {
	var out []fyne.Focusable
	onUI(func() {
		c := w.win.Canvas()
		seen := map[fyne.Focusable]bool{}
		if f := c.Focused(); f != nil {
			out = append(out, f)
			seen[f] = true
		}
		for range 40 {
			c.FocusNext()
			f := c.Focused()
			if f == nil || seen[f] {
				continue
			}
			seen[f] = true
			out = append(out, f)
		}
	})
	return out
}

// escapeEverywhere opens a dialog again and again and presses Esc with
// each of its widgets focused in turn, and with none: it closes each time.
func escapeEverywhere(t *testing.T, w *Tab, name string, open func()) int {
	t.Helper()
	opened := func() {
		t.Helper()
		onUI(open)
		testsupport.Eventually(t, name+" open", func() bool { return dialogOpen(w) })
	}
	opened()
	n := len(dialogFocusables(w))
	onUI(func() { w.win.Canvas().Unfocus() })
	press(w, fyne.KeyEscape)
	if dialogOpen(w) {
		t.Fatalf("%s: Esc with nothing focused left it open", name)
	}
	for i := range n {
		opened()
		fs := dialogFocusables(w)
		if i >= len(fs) {
			t.Fatalf("%s: %d focusable widgets, then %d", name, n, len(fs))
		}
		onUI(func() { w.win.Canvas().Focus(fs[i]) })
		press(w, fyne.KeyEscape)
		if dialogOpen(w) {
			t.Fatalf("%s: Esc on its %T (widget %d of %d) left it open", name, fs[i], i+1, n)
		}
	}
	var focused fyne.Focusable
	onUI(func() { focused = w.win.Canvas().Focused() })
	if focused != w.composer.prompt.Editor {
		t.Fatalf("%s: after it closed the focus is on %T, not the editor", name, focused)
	}
	return n
}

// TestWindowDialogsCloseOnEscape: every dialog of the app closes on Esc,
// as its Cancel (or Close) button would, whatever has the focus in it —
// its entry, a check box, a choice, a list, a button Tab went to — or
// nothing; nothing is sent, and the keyboard goes back to the editor.
func TestWindowDialogsCloseOnEscape(t *testing.T) {
	w, log := openTestWindow(t)
	typeAndSend(w, "a first prompt to fork from")
	testsupport.Eventually(t, "reply", func() bool { return settledReply(w) })
	png := filepath.Join(t.TempDir(), "a.png")
	writePNG(t, png, 16)
	onUI(func() { w.composer.attachFiles([]string{png}) })
	testsupport.Eventually(t, "image", func() bool { return readyCount(w) == 1 })
	var imageID string
	onUI(func() { imageID = w.composer.images[0].id })
	w.Notify(model.Notice{Text: "a notification", Level: model.NoticeInfo})

	cases := []struct {
		name string
		open func()
	}{
		{"Rename", w.commands.actionRename},
		{"Settings", w.showSettings},
		{"Agent behaviour", w.commands.actionModes},
		{"Compact", w.commands.actionCompact},
		{"Fork", w.commands.actionFork},
		{"Sessions", w.panels.actionBrowse},
		{"Session tree", w.panels.actionTree},
		{"Notifications", w.commands.actionNotifications},
		{"Image preview", func() { w.composer.previewImage(imageID) }},
		{"Images to a text model", func() { w.composer.confirmImagesForTextModel(func() { t.Error("sent after Esc") }) }},
		{"Exported", func() {
			w.ask("Exported", "Saved to x.html.\nOpen it now?", dialogAction{label: "Close", isCancel: true}, dialogAction{label: "Open", isDefault: true, run: func() { t.Error("opened after Esc") }})
		}},
		{"Message", func() { w.message("No agent", "Choose the agent executable first.") }},
		{"Output viewer", func() {
			w.files.showOutputViewer(shownOutput{name: "pi-bash-1.log", path: "/tmp/pi-bash-1.log", text: "line 1\nline 2\n", size: 14})
		}},
	}
	for _, c := range cases {
		n := escapeEverywhere(t, w, c.name, c.open)
		t.Logf("%s: closed by Esc from each of %d focusable widgets and from none", c.name, n)
	}
	for _, typ := range []string{"set_session_name", "compact", "set_auto_compaction", "set_auto_retry", "set_steering_mode", "set_follow_up_mode", "fork", "switch_session", "new_session"} {
		if n := len(sentOfType(t, log, typ)); n != 0 {
			t.Errorf("%s sent %d times after dialogs were only cancelled", typ, n)
		}
	}
	var saved string
	onUI(func() { saved = w.app.Preferences().String(prefTheme) })
	if saved != "" {
		t.Errorf("settings saved (theme %q) after Esc", saved)
	}
}

// TestWindowDialogsSubmitOnEnter: Enter presses the default button —
// Rename, Save, Apply, Fork, Compact (Ctrl+Enter from its multi-line
// box, where Enter starts a new line) — and waits while it is disabled.
func TestWindowDialogsSubmitOnEnter(t *testing.T) {
	w, log := openTestWindow(t)

	// Rename: the old name is selected, typing replaces it, Enter renames.
	onUI(w.commands.actionRename)
	typeInto(w, "Grüße an alle")
	press(w, fyne.KeyReturn)
	testsupport.Eventually(t, "renamed", func() bool { return len(sentOfType(t, log, "set_session_name")) == 1 })
	if got := sentOfType(t, log, "set_session_name")[0]["name"]; got != "Grüße an alle" || dialogOpen(w) {
		t.Fatalf("renamed to %v, dialog open %v", got, dialogOpen(w))
	}
	onUI(w.commands.actionRename)
	onUI(func() { w.win.Canvas().Focused().(*kit.DialogEntry).SetText("   ") })
	press(w, fyne.KeyReturn)
	if !dialogOpen(w) {
		t.Fatal("Enter renamed to an empty name")
	}
	press(w, fyne.KeyEscape)

	// Settings: the arrows pick a text size, Enter saves from anywhere.
	onUI(w.showSettings)
	fs := dialogFocusables(w)
	var size *kit.Choice
	for _, f := range fs {
		if c, ok := f.(*kit.Choice); ok && c.Selected() == "Normal" {
			size = c
		}
	}
	if size == nil {
		t.Fatal("no text size choice in Settings")
	}
	onUI(func() { w.win.Canvas().Focus(size) })
	press(w, fyne.KeyRight)
	press(w, fyne.KeyReturn)
	var scale float64
	onUI(func() { scale = w.settings.TextScale })
	if scale != 1.15 || dialogOpen(w) {
		t.Fatalf("after Right and Enter: text scale %v, dialog open %v", scale, dialogOpen(w))
	}

	// Agent behaviour: Space toggles the focused box, Enter applies.
	onUI(w.commands.actionModes)
	typeInto(w, " ")
	press(w, fyne.KeyReturn)
	testsupport.Eventually(t, "applied", func() bool { return len(sentOfType(t, log, "set_auto_compaction")) == 1 })

	// Compact: Enter is a new line, Ctrl+Enter compacts.
	onUI(w.commands.actionCompact)
	typeInto(w, "keep the API notes")
	press(w, fyne.KeyReturn)
	typeInto(w, "and the tests")
	if !dialogOpen(w) {
		t.Fatal("Enter in the instructions closed the dialog")
	}
	pressCtrlEnter(w)
	testsupport.Eventually(t, "compacted", func() bool { return len(sentOfType(t, log, "compact")) == 1 })
	if got := sentOfType(t, log, "compact")[0]["customInstructions"]; got != "keep the API notes\nand the tests" {
		t.Fatalf("compact instructions %q", got)
	}

	// Fork: nothing picked, so Enter waits; Down picks the first prompt,
	// Enter forks from it.
	typeAndSend(w, "the prompt to fork from")
	testsupport.Eventually(t, "reply", func() bool { return settledReply(w) })
	onUI(w.commands.actionFork)
	testsupport.Eventually(t, "fork list", func() bool { return dialogOpen(w) })
	press(w, fyne.KeyReturn)
	if !dialogOpen(w) || len(sentOfType(t, log, "fork")) != 0 {
		t.Fatal("Enter forked with nothing picked")
	}
	press(w, fyne.KeyDown)
	press(w, fyne.KeyReturn)
	testsupport.Eventually(t, "forked", func() bool { return len(sentOfType(t, log, "fork")) == 1 })
	testsupport.Eventually(t, "the prompt back in the editor", func() bool {
		var text string
		onUI(func() { text = w.composer.prompt.Editor.Text() })
		return text == "the prompt to fork from"
	})

	// A message: Enter closes it.
	onUI(func() { w.message("Fork", "There is no earlier prompt to fork from yet.") })
	press(w, fyne.KeyReturn)
	if dialogOpen(w) {
		t.Fatal("Enter left the message open")
	}
}

// TestWindowExtensionDialogsKeyboard: the agent's questions obey the
// keyboard. A select lists its options with none picked and Choose
// disabled; the arrows pick, Enter chooses. A confirm says Yes on Enter
// and cancelled on Esc; an input answers on Enter; an editor takes Enter
// as a new line and answers on Ctrl+Enter.
func TestWindowExtensionDialogsKeyboard(t *testing.T) {
	w, _ := openTestWindow(t)
	answered := func(want string) {
		t.Helper()
		testsupport.Eventually(t, "answer "+want, func() bool {
			if !settledReply(w) {
				return false
			}
			v := drawn(w)
			return strings.Contains(v.Items[len(v.Items)-1].Blocks[len(v.Items[len(v.Items)-1].Blocks)-1].Text, want)
		})
	}
	ask := func(marker string) {
		t.Helper()
		typeAndSend(w, "question "+marker)
		testsupport.Eventually(t, marker+" shown", func() bool { return dialogOpen(w) })
	}

	ask("[[ext:select]]")
	var choose *kit.DialogButton
	onUI(func() { choose = w.modals.top().(*keyDialog).button("Choose") })
	var disabled bool
	onUI(func() { disabled = choose.Disabled() })
	if !disabled {
		t.Fatal("Choose enabled before anything was picked")
	}
	press(w, fyne.KeyReturn)
	if !dialogOpen(w) {
		t.Fatal("Enter chose with nothing picked")
	}
	press(w, fyne.KeyDown) // apple
	press(w, fyne.KeyDown) // banana
	press(w, fyne.KeyDown) // cherry
	press(w, fyne.KeyUp)   // banana
	onUI(func() { disabled = choose.Disabled() })
	if disabled {
		t.Fatal("Choose still disabled after a pick")
	}
	press(w, fyne.KeyReturn)
	answered(`answered: {"value":"banana"}`)

	ask("[[ext:confirm]]")
	press(w, fyne.KeyReturn)
	answered(`answered: {"confirmed":true}`)
	ask("[[ext:confirm]]")
	press(w, fyne.KeyEscape)
	answered(`answered: {"cancelled":true}`)

	ask("[[ext:input]]")
	typeInto(w, "Ann")
	press(w, fyne.KeyReturn)
	answered(`answered: {"value":"Ann"}`)

	ask("[[ext:editor]]")
	onUI(func() { w.win.Canvas().Focused().(*kit.DialogEntry).SetText("") })
	typeInto(w, "one")
	press(w, fyne.KeyReturn)
	typeInto(w, "two")
	pressCtrlEnter(w)
	answered(`answered: {"value":"one\ntwo"}`)
}
