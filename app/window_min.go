package app

import "fyne.io/fyne/v2"

// minWindowSize is the smallest the window lets itself be made (the driver
// keeps a window at least as big as its content's MinSize): below it the
// header could no longer keep the session's name, the model and its
// buttons readable, nor the status bar its context meter.
var minWindowSize = fyne.NewSize(480, 360)

// atLeast stacks its objects, as container.NewStack does, and is never
// smaller than min.
type atLeast struct{ min fyne.Size }

func (l atLeast) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (l atLeast) MinSize(objects []fyne.CanvasObject) fyne.Size {
	m := l.min
	for _, o := range objects {
		if o.Visible() {
			m = m.Max(o.MinSize())
		}
	}
	return m
}
