package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// FlowStack stacks children top to bottom at its full width, each below a gap.
// Unlike container.NewVBox it measures children for the width they get, so
// wrapped text inside it has the right height on the first layout.
//
// It keeps no height cache of its own: its children cache theirs, and a
// stack whose children change would otherwise need telling.
type FlowStack struct {
	widget.BaseWidget
	children []fyne.CanvasObject
	// gaps[i] is the space above children[i], in multiples of the theme's
	// padding so it follows the theme; missing entries are zero.
	gaps []float32
	// shown is what of it is in the window.
	shown kit.WindowStack
}

func newFlowStack(children []fyne.CanvasObject, gaps []float32) *FlowStack {
	v := &FlowStack{children: children, gaps: gaps, shown: kit.NewWindowStack()}
	v.shown.Set(children)
	v.ExtendBaseWidget(v)
	return v
}

// SetWindow implements windowed.
func (v *FlowStack) SetWindow(top, bottom float32) { v.shown.SetWindow(top, bottom) }

func (v *FlowStack) gap(i int) float32 {
	if i < len(v.gaps) && i > 0 {
		return v.gaps[i] * v.Theme().Size(theme.SizeNamePadding)
	}
	return 0
}

func (v *FlowStack) HeightAt(width float32) float32 {
	h := float32(0)
	first := true
	for i, c := range v.children {
		if !c.Visible() {
			continue
		}
		if !first {
			h += v.gap(i)
		}
		first = false
		h += kit.ObjHeightAt(c, width)
	}
	return h
}

func (v *FlowStack) CreateRenderer() fyne.WidgetRenderer {
	return &flowStackRenderer{v: v}
}

type flowStackRenderer struct {
	v *FlowStack
}

func (r *flowStackRenderer) Layout(size fyne.Size) {
	y := float32(0)
	first := true
	for i, c := range r.v.children {
		if !c.Visible() {
			continue
		}
		if !first {
			y += r.v.gap(i)
		}
		first = false
		h := kit.ObjHeightAt(c, size.Width)
		c.Move(fyne.NewPos(0, y))
		c.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
	r.v.shown.Apply()
}

func (r *flowStackRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.v.HeightAt(r.v.Size().Width))
}

func (r *flowStackRenderer) Refresh() {
	r.Layout(r.v.Size())
	canvas.Refresh(r.v)
}

func (r *flowStackRenderer) Objects() []fyne.CanvasObject {
	return r.v.shown.Shown
}

func (r *flowStackRenderer) Destroy() {}
