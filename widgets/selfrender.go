package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// selfLaying is a widget that keeps its own objects and places them for a
// size; the chat views are all of this shape.
type selfLaying interface {
	fyne.Widget
	heightForWidth
	// layout places the objects for size.
	layout(size fyne.Size)
	// objects lists what to draw, back to front.
	objects() []fyne.CanvasObject
	// restyle re-reads theme colours and sizes.
	restyle()
}

// selfRenderer is the renderer of a selfLaying widget.
type selfRenderer struct {
	w selfLaying
}

func (r *selfRenderer) Layout(size fyne.Size) { layoutSelf(r.w, size) }

func (r *selfRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.w.heightAt(r.w.Size().Width))
}

// Refresh restyles; it runs for theme changes and explicit refreshes, not
// for content updates, which repaint only what they replace.
func (r *selfRenderer) Refresh() {
	r.w.restyle()
	r.Layout(r.w.Size())
	canvas.Refresh(r.w)
}

func (r *selfRenderer) Objects() []fyne.CanvasObject {
	if p, ok := r.w.(partsWindowing); ok {
		return p.windowParts().visible()
	}
	return r.w.objects()
}

func (r *selfRenderer) Destroy() {}
