package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// SelfLaying is a widget that keeps its own objects and places them for a
// size; the chat views are all of this shape.
type SelfLaying interface {
	fyne.Widget
	heightForWidth
	// Arrange places the objects for size.
	Arrange(size fyne.Size)
	// Parts lists what to draw, back to front.
	Parts() []fyne.CanvasObject
	// Restyle re-reads theme colours and sizes.
	Restyle()
}

// SelfRenderer is the renderer of a selfLaying widget.
type SelfRenderer struct {
	W SelfLaying
}

func (r *SelfRenderer) Layout(size fyne.Size) { LayoutSelf(r.W, size) }

func (r *SelfRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.W.HeightAt(r.W.Size().Width))
}

// Refresh restyles; it runs for theme changes and explicit refreshes, not
// for content updates, which repaint only what they replace.
func (r *SelfRenderer) Refresh() {
	r.W.Restyle()
	r.Layout(r.W.Size())
	canvas.Refresh(r.W)
}

func (r *SelfRenderer) Objects() []fyne.CanvasObject {
	if p, ok := r.W.(PartsWindowing); ok {
		return p.WindowParts().visible()
	}
	return r.W.Parts()
}

func (r *SelfRenderer) Destroy() {}

// LayoutSelf places a view's parts and windows them.
func LayoutSelf(v SelfLaying, size fyne.Size) {
	v.Arrange(size)
	if p, ok := v.(PartsWindowing); ok {
		p.WindowParts().Apply()
	}
}
