package uiloop

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestPaintProbeFiresAtThePaintAfterTheDraw: a wait is armed by the draw of
// its revision and fired by the next paint, not before.
func TestPaintProbeFiresAtThePaintAfterTheDraw(t *testing.T) {
	test.NewTempApp(t)
	p := NewPaintProbe()
	painted := 0
	p.Painted = func() { painted++ }
	w := test.NewWindow(container.NewStack(widget.NewLabel("transcript"), p.Object()))
	w.Resize(fyne.NewSize(200, 100))
	defer w.Close()

	fired := make(chan int, 2)
	p.Wait(5, func() { fired <- 5 }, 4)
	w.Canvas().Capture()
	expectNone(t, fired, "before its draw")
	p.Drawn(5)
	expectNone(t, fired, "before the paint")
	w.Canvas().Capture()
	select {
	case got := <-fired:
		if got != 5 || painted != 1 {
			t.Fatalf("fired %d, painted %d", got, painted)
		}
	case <-time.After(time.Minute):
		t.Fatal("not fired within a minute of the paint after the draw")
	}
	// Drawn already: armed at once.
	p.Wait(3, func() { fired <- 3 }, 5)
	w.Canvas().Capture()
	if got := <-fired; got != 3 {
		t.Fatalf("fired %d", got)
	}
}

func expectNone(t *testing.T, fired chan int, when string) {
	t.Helper()
	select {
	case got := <-fired:
		t.Fatalf("wait %d fired %s", got, when)
	case <-time.After(50 * time.Millisecond):
	}
}
