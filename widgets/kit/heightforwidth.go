package kit

import "fyne.io/fyne/v2"

// Wrapped text has no fixed height: it depends on the width it is given.
// Fyne's MinSize has no width argument, so the widgets here also answer
// heightAt(width), which lets a parent measure a child for the width it
// is about to give it instead of resizing twice and hoping it settles.
type heightForWidth interface {
	HeightAt(width float32) float32
}

// ObjHeightAt measures any object for a width; plain Fyne widgets do not
// wrap, so their MinSize is the answer.
func ObjHeightAt(o fyne.CanvasObject, width float32) float32 {
	if h, ok := o.(heightForWidth); ok {
		return h.HeightAt(width)
	}
	return o.MinSize().Height
}
