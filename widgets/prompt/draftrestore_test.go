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
