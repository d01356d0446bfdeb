package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// headerLayout places the tab's header in one row: the session's name on
// the left, then the folder, the model and thinking pickers and the
// buttons on the right. An HBox would push what does not fit out of the
// window and cut it off; this gives way in an order instead, so the name,
// the model and the buttons stay readable down to the window's minimum
// width:
//
//  1. the folder goes first (the window's title names it too);
//  2. the model picker, then the name shrink to their floors, with an
//     ellipsis (widget.Select and a truncating Label draw one when given
//     less than their text);
//  3. then the thinking picker goes whole: cut, "Thinking: medium" would
//     lose the level, all it is there to say;
//  4. what is left shares the width, cut with an ellipsis, never clipped.
//
// Objects, in order: name, folder, models, thinking, then the buttons.
type headerLayout struct {
	// left are the objects this layout hid for want of room; it shows
	// them again when there is room. Others are hidden by their owner.
	left map[fyne.CanvasObject]bool
}

// The floors below which a part rather goes than shrinks further.
const (
	headerNameFloor  = 120
	headerModelFloor = 150
)

// header indexes of the objects headerLayout places.
const (
	headerName = iota
	headerFolder
	headerModels
	headerThinking
	headerButtons // and every object after it
)

// headerPlan is what headerLayout decided for a width: each object's
// width, 0 for one left out.
type headerPlan []float32

func (l *headerLayout) plan(objects []fyne.CanvasObject, width, gap float32) headerPlan {
	want := make(headerPlan, len(objects))
	for i, o := range objects {
		if o.Visible() || l.left[o] {
			want[i] = o.MinSize().Width
		}
	}
	if name, ok := objects[headerName].(*widget.Label); ok && want[headerName] > 0 {
		// A truncating label's MinSize is an ellipsis; it wants its text.
		want[headerName] = fyne.MeasureText(name.Text, theme.TextSize(), name.TextStyle).Width +
			2*theme.InnerPadding()
	}
	plan := append(headerPlan(nil), want...)
	used := func() float32 {
		var sum float32
		shown := 0
		for _, w := range plan {
			if w > 0 {
				sum += w
				shown++
			}
		}
		if shown > 1 {
			sum += gap * float32(shown-1)
		}
		return sum
	}
	if used() <= width {
		// The name takes what is left: a long name shows more of itself.
		plan[headerName] += width - used()
		return plan
	}
	plan[headerFolder] = 0
	shrink := func(i int, floor float32) {
		if over := used() - width; over > 0 && plan[i] > floor {
			plan[i] = max(floor, plan[i]-over)
		}
	}
	shrink(headerModels, headerModelFloor)
	shrink(headerName, headerNameFloor)
	if used() > width {
		plan[headerThinking] = 0
		// What the thinking picker left goes back to the model, then the
		// name.
		grow := func(i int) {
			if slack := width - used(); slack > 0 && plan[i] < want[i] {
				plan[i] = min(want[i], plan[i]+slack)
			}
		}
		grow(headerModels)
		grow(headerName)
	}
	if over := used() - width; over > 0 {
		// Below every floor: the name and the model share what is left.
		rest := max(0, plan[headerName]+plan[headerModels]-over)
		plan[headerName], plan[headerModels] = rest/2, rest/2
	}
	if used() < width {
		plan[headerName] += width - used()
	}
	return plan
}

func (l *headerLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	gap := theme.Padding()
	plan := l.plan(objects, size.Width, gap)
	if l.left == nil {
		l.left = map[fyne.CanvasObject]bool{}
	}
	x := float32(0)
	for i, o := range objects {
		switch {
		case plan[i] <= 0 && o.Visible():
			l.left[o] = true
			o.Hide()
			continue
		case plan[i] <= 0:
			continue
		case l.left[o]:
			delete(l.left, o)
			o.Show()
		}
		h := min(o.MinSize().Height, size.Height)
		o.Move(fyne.NewPos(x, (size.Height-h)/2))
		o.Resize(fyne.NewSize(plan[i], h))
		x += plan[i] + gap
	}
}

// MinSize is the header at its narrowest: the buttons, the name and the
// model at their floors. The window's minimum width (minWindowSize) is
// above it.
func (*headerLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	gap := theme.Padding()
	w := float32(headerNameFloor+headerModelFloor) + gap
	var h float32
	for i, o := range objects {
		if !o.Visible() {
			continue
		}
		h = max(h, o.MinSize().Height)
		if i >= headerButtons {
			w += o.MinSize().Width + gap
		}
	}
	return fyne.NewSize(w, h)
}
