package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// widthLaying is a markdown block that lays itself out for a width and
// keeps that layout until its content changes: code blocks and tables.
type widthLaying interface {
	fyne.Widget
	heightForWidth
	// layoutAt places the objects for width, reusing a valid layout.
	layoutAt(width float32)
	// invalidate drops the kept layout.
	invalidate()
	// draw picks the objects for the layout and the window.
	draw()
	// drawn lists what to draw, back to front.
	drawn() []fyne.CanvasObject
}

// widthRenderer is the renderer of a widthLaying widget.
type widthRenderer struct {
	w widthLaying
}

func (r *widthRenderer) Layout(size fyne.Size) {
	r.w.layoutAt(size.Width)
	r.w.draw()
}

func (r *widthRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.w.heightAt(r.w.Size().Width))
}

func (r *widthRenderer) Refresh() {
	r.w.invalidate()
	if w := r.w.Size().Width; w > 0 { // else laid out when given a size
		r.w.layoutAt(w)
		r.w.draw()
		canvas.Refresh(r.w)
	}
}

func (r *widthRenderer) Objects() []fyne.CanvasObject { return r.w.drawn() }

func (r *widthRenderer) Destroy() {}
