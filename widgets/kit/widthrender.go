package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// widthLaying is a markdown block that lays itself out for a width and
// keeps that layout until its content changes: text flows, code blocks and
// tables.
type widthLaying interface {
	fyne.Widget
	heightForWidth
	// LayoutAt places the objects for width, reusing a valid layout.
	LayoutAt(width float32)
	// Invalidate drops the kept layout.
	Invalidate()
	// Draw picks the objects for the layout and the window.
	Draw()
	// drawn lists what to draw, back to front.
	DrawnObjects() []fyne.CanvasObject
}

// WidthRenderer is the renderer of a widthLaying widget.
type WidthRenderer struct {
	W widthLaying
}

func (r *WidthRenderer) Layout(size fyne.Size) {
	r.W.LayoutAt(size.Width)
	r.W.Draw()
}

func (r *WidthRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.W.HeightAt(r.W.Size().Width))
}

func (r *WidthRenderer) Refresh() {
	r.W.Invalidate()
	if w := r.W.Size().Width; w > 0 { // else laid out when given a size
		r.W.LayoutAt(w)
		r.W.Draw()
		canvas.Refresh(r.W)
	}
}

func (r *WidthRenderer) Objects() []fyne.CanvasObject { return r.W.DrawnObjects() }

func (r *WidthRenderer) Destroy() {}
