package prompt

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/widgettest"
)

func TestDraftRestore(t *testing.T) {
	test.NewTempApp(t)
	d := NewDraftRestore()
	restored, dismissed := "", 0
	d.OnRestore = func() { restored = d.Previous() }
	d.OnDismiss = func() { dismissed++ }
	w := test.NewTempWindow(t, container.NewVBox(d, widget.NewMultiLineEntry()))
	w.Resize(fyne.NewSize(720, 160))
	if d.Visible() {
		t.Fatal("new line visible")
	}

	draft := "\n  Refactor the sidebar so <b>cards</b> recycle\nand keep their scroll offset"
	d.ShowFor(draft)
	w.Content().Refresh()
	test.AssertRendersToMarkup(t, "draftrestore/shown.xml", w.Canvas())

	test.Tap(d.restore)
	if restored != draft || d.Visible() {
		t.Fatalf("restored %q, visible %v", restored, d.Visible())
	}
	d.ShowFor("second")
	test.Tap(d.dismiss)
	if d.Visible() || dismissed != 1 || restored != draft {
		t.Fatalf("after close: visible %v, dismissed %d", d.Visible(), dismissed)
	}

	// Too narrow for the old draft's start: it is left out, not squeezed.
	d.ShowFor(draft)
	w.Resize(fyne.NewSize(440, 160))
	w.Content().Refresh()
	if d.preview.Text != "" {
		t.Fatalf("preview %q in a narrow window", d.preview.Text)
	}
}

func TestDraftRestoreShots(t *testing.T) {
	widgettest.SaveShots(t, "draftrestore", fyne.NewSize(720, 150), func() fyne.CanvasObject {
		d := NewDraftRestore()
		d.ShowFor("Refactor the sidebar so cards recycle and keep their scroll offset when the window resizes")
		e := widget.NewMultiLineEntry()
		e.SetText("/review the last commit")
		return container.NewVBox(d, e)
	})
}

// An extension replacing the draft again, and notes shown meanwhile, keep
// the user's own draft on offer.
func TestDraftRestoreKeepsUsersDraft(t *testing.T) {
	test.NewTempApp(t)
	d := NewDraftRestore()
	restored := ""
	d.OnRestore = func() { restored = d.Previous() }
	test.NewTempWindow(t, container.NewVBox(d, widget.NewMultiLineEntry()))

	d.ShowFor("my own draft")
	d.ShowFor("the extension's first text")
	if got := d.Previous(); got != "my own draft" {
		t.Fatalf("after a second replacement the line offers %q", got)
	}

	// A note comes in front; the restore waits behind it.
	undone := 0
	d.ShowNote("Added a reference", "Undo", func() { undone++ })
	if d.Note() != "Added a reference" || d.Previous() != "my own draft" || !d.Pending() {
		t.Fatalf("note %q, previous %q, pending %v", d.Note(), d.Previous(), d.Pending())
	}
	d.HideNote()
	if !d.Visible() || d.Note() != draftRestoreText || d.Previous() != "my own draft" {
		t.Fatalf("after the note went: visible %v, note %q, previous %q", d.Visible(), d.Note(), d.Previous())
	}

	// The note's action, and its close button, bring the restore back too.
	d.ShowNote("Added a reference", "Undo", func() { undone++ })
	d.Act()
	if undone != 1 || !d.Visible() || d.Note() != draftRestoreText {
		t.Fatalf("after Undo: undone %d, visible %v, note %q", undone, d.Visible(), d.Note())
	}
	d.ShowNote("Added a reference", "Undo", func() { undone++ })
	test.Tap(d.dismiss)
	if undone != 1 || !d.Visible() || d.Note() != draftRestoreText {
		t.Fatalf("after closing the note: undone %d, visible %v, note %q", undone, d.Visible(), d.Note())
	}

	d.Act()
	if restored != "my own draft" || d.Visible() || d.Previous() != "" {
		t.Fatalf("restored %q, visible %v, previous %q", restored, d.Visible(), d.Previous())
	}
	// Once restored, the next replacement offers what it replaces.
	d.ShowFor("later draft")
	if d.Previous() != "later draft" {
		t.Fatalf("next offer %q", d.Previous())
	}
	// A note without a restore behind it just hides.
	test.Tap(d.dismiss)
	d.ShowNote("Added a reference", "Undo", nil)
	d.HideNote()
	if d.Visible() {
		t.Fatal("a note alone stayed after HideNote")
	}
}
