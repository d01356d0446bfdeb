package widgets

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

func TestBanner(t *testing.T) {
	test.NewTempApp(t)
	b := NewBanner()
	restarts, dismissed := 0, 0
	b.OnRestart = func() { restarts++ }
	b.OnDismiss = func() { dismissed++ }
	w := test.NewTempWindow(t, container.NewVBox(b))
	w.Resize(fyne.NewSize(560, 260))
	if b.Visible() {
		t.Fatal("new banner visible")
	}

	var tail strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&tail, "stderr line %d\n", i)
	}
	tail.WriteString("panic: <b>not markup</b>")
	b.SetMessage("KnightCode agent exited — exit code 3", tail.String(), model.NoticeError)
	b.Show()
	w.Content().Refresh() // the desktop driver re-lays out on its own when a size changes
	test.AssertRendersToMarkup(t, "banner/crash.xml", w.Canvas())

	test.Tap(b.restart)
	if restarts != 1 {
		t.Fatal("Restart did not call OnRestart")
	}
	test.Tap(b.dismiss)
	if b.Visible() || dismissed != 1 {
		t.Fatalf("after close: visible=%v dismissed=%d", b.Visible(), dismissed)
	}

	b.OnRestart = nil
	b.SetMessage("KnightCode agent is not responding", "", model.NoticeWarning)
	b.Show()
	w.Content().Refresh()
	test.AssertRendersToMarkup(t, "banner/warning.xml", w.Canvas())
}
