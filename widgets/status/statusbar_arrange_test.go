package status

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

// refreshCounter is a canvas that counts the refreshes of one object.
type refreshCounter struct {
	fyne.Canvas
	of fyne.CanvasObject
	n  int
}

func (c *refreshCounter) Refresh(o fyne.CanvasObject) {
	if o == c.of {
		c.n++
	}
	c.Canvas.Refresh(o)
}

type countingDriver struct {
	fyne.Driver
	c *refreshCounter
}

func (d *countingDriver) CanvasForObject(fyne.CanvasObject) fyne.Canvas { return d.c }

type countingApp struct {
	fyne.App
	d *countingDriver
}

func (a *countingApp) Driver() fyne.Driver { return a.d }

// Laying the bar out again, as Fyne does at the paint after its figures
// change width, refreshes the extensions' text only when it changed: a
// refresh there would repaint the whole window once more.
func TestStatusBarArrangeRefreshesTheExtensionsOnlyWhenChanged(t *testing.T) {
	a := test.NewTempApp(t)
	b := NewStatusBar()
	st := model.Status{Connection: "Connected", Connected: true, ContextPercent: -1, Extension: map[string]string{"a": "branch main"}}
	b.SetStatus(st)
	w := test.NewTempWindow(t, b)
	size := fyne.NewSize(760, 40)
	w.Resize(size)
	c := &refreshCounter{Canvas: w.Canvas(), of: b.ext}
	fyne.SetCurrentApp(&countingApp{App: a, d: &countingDriver{Driver: a.Driver(), c: c}})
	t.Cleanup(func() { fyne.SetCurrentApp(a) })

	b.Arrange(size)
	st.TokensOut = 123456
	b.SetStatus(st)
	b.Arrange(size)
	if c.n != 0 {
		t.Fatalf("the unchanged extensions' text was refreshed %d times", c.n)
	}
	if b.ext.Text != "branch main" {
		t.Fatalf("extensions %q", b.ext.Text)
	}
	b.Arrange(fyne.NewSize(330, 40)) // too narrow: cut to fit
	if c.n == 0 || b.ext.Text == "branch main" {
		t.Fatalf("cut to %q with %d refreshes, want a shorter text, refreshed", b.ext.Text, c.n)
	}
}
