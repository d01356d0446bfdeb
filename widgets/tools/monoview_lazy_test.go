package tools

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// An empty view measures no monospace cell (the font face it would load
// is a parse of its own, emoji font included); its first text is measured
// and laid out in cells; a click on it while empty selects nothing.
func TestMonoViewMeasuresItsCellWithItsFirstText(t *testing.T) {
	test.NewTempApp(t)
	doc := NewMonoDoc()
	v := NewMonoView(doc)
	s := NewMonoScroll(v)
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(300, 200))
	if v.Cell != (fyne.Size{}) {
		t.Fatalf("an empty view measured its cell: %v", v.Cell)
	}
	if p := v.pointAt(fyne.NewPos(40, 40)); p != (monoPoint{}) {
		t.Fatalf("a point in the empty view: %+v", p)
	}
	doc.Lines.SetText("one\ntwo\n")
	v.changed()
	if v.Cell.Width <= 0 || v.Cell.Height <= 0 {
		t.Fatalf("the first text left the cell at %v", v.Cell)
	}
	if h := v.contentSize().Height; h < 2*v.Cell.Height {
		t.Fatalf("two lines are %v high with a %v cell", h, v.Cell)
	}
}
