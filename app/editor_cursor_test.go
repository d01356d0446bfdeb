package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestWindowRestoredDraftCursorInRunes: texts that come back into the
// editor (a failed send, a cleared queue, an extension's text, a "/"
// completion) leave the cursor at their end, counted in characters: what
// the user types next goes after the last letter of a non-ASCII draft, not
// into its middle.
func TestWindowRestoredDraftCursorInRunes(t *testing.T) {
	w, _ := openTestWindow(t)
	editor := func() (text string, at int) {
		onUI(func() { text, at = w.composer.prompt.Editor.Text(), w.composer.prompt.Editor.CursorOffset() })
		return text, at
	}
	onUI(func() { test.Type(w.composer.prompt.Editor, "Grüße, Welt") })
	w.RestoreDraft("naïve café ✓ — 日本語")
	const restored = "Grüße, Welt\n\nnaïve café ✓ — 日本語"
	if text, at := editor(); text != restored || at != len([]rune(restored)) {
		t.Fatalf("after the restore: %q, cursor at %d, want %d", text, at, len([]rune(restored)))
	}
	onUI(func() { test.Type(w.composer.prompt.Editor, "!") })
	if text, _ := editor(); text != restored+"!" {
		t.Fatalf("typed after the restore: %q", text)
	}

	// One Left moves one character back: the cursor is not some bytes
	// past the end, where arrows seem to do nothing.
	onUI(func() {
		w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
		test.Type(w.composer.prompt.Editor, "|")
	})
	if text, _ := editor(); text != "Grüße, Welt\n\nnaïve café ✓ — 日本語|!" {
		t.Fatalf("Left and typing after the restore: %q", text)
	}

	// A last line longer than the editor is wide wraps on screen; the
	// cursor still ends up after its last character.
	onUI(w.composer.prompt.Editor.Clear)
	long := strings.Repeat("Änderungen über Größen — ", 12)
	w.RestoreDraft(long)
	onUI(func() { test.Type(w.composer.prompt.Editor, "END") })
	if text, _ := editor(); text != long+"END" {
		t.Fatalf("typed after a wrapped restore: …%q", text[max(0, len(text)-60):])
	}

	w.SetEditorText("Überschrift für später")
	onUI(func() { test.Type(w.composer.prompt.Editor, "?") })
	if text, _ := editor(); text != "Überschrift für später?" {
		t.Fatalf("typed after an extension's text: %q", text)
	}
}
