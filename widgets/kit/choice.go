package kit

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Choice is a row of radio buttons with one option always picked, the
// keyboard's way: it takes the focus as one control (Tab moves past it, not
// through every option), the arrow keys pick the previous or next option,
// and Esc and Enter go to its dialog. widget.RadioGroup focuses each
// option on its own and keeps every key but Space to itself.
type Choice struct {
	widget.BaseWidget

	// OnChanged is called after the user picked another option.
	OnChanged func(string)
	Keys      *DialogKeys

	options  []string
	selected int
	focused  bool
	hovered  int

	focus  []*canvas.Circle
	icons  []*canvas.Image
	labels []*canvas.Text
}

var (
	_ fyne.Focusable    = (*Choice)(nil)
	_ fyne.Tappable     = (*Choice)(nil)
	_ desktop.Hoverable = (*Choice)(nil)
)

// NewChoice returns a choice of options with the first picked.
func NewChoice(options []string, keys *DialogKeys) *Choice {
	c := &Choice{options: slices.Clone(options), Keys: keys, hovered: -1}
	c.ExtendBaseWidget(c)
	return c
}

// Selected is the picked option ("" when there are none).
func (c *Choice) Selected() string {
	if c.selected < 0 || c.selected >= len(c.options) {
		return ""
	}
	return c.options[c.selected]
}

// SetSelected picks option without calling OnChanged; an unknown option
// leaves the choice as it is.
func (c *Choice) SetSelected(option string) {
	if i := slices.Index(c.options, option); i >= 0 && i != c.selected {
		c.selected = i
		c.Refresh()
	}
}

func (c *Choice) pick(i int) {
	if i < 0 || i >= len(c.options) || i == c.selected {
		return
	}
	c.selected = i
	c.Refresh()
	if c.OnChanged != nil {
		c.OnChanged(c.options[i])
	}
}

// FocusGained shows the focus around the picked option.
func (c *Choice) FocusGained() { c.focused = true; c.Refresh() }

// FocusLost hides it.
func (c *Choice) FocusLost() { c.focused = false; c.Refresh() }

// TypedRune ignores typing.
func (c *Choice) TypedRune(rune) {}

// TypedKey: arrows pick, Home and End pick the first and last option, Esc
// and Enter go to the dialog.
func (c *Choice) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyLeft, fyne.KeyUp:
		c.pick(c.selected - 1)
	case fyne.KeyRight, fyne.KeyDown:
		c.pick(c.selected + 1)
	case fyne.KeyHome:
		c.pick(0)
	case fyne.KeyEnd:
		c.pick(len(c.options) - 1)
	default:
		c.Keys.Key(ev)
	}
}

// TypedShortcut submits the dialog on Ctrl+Enter.
func (c *Choice) TypedShortcut(s fyne.Shortcut) {
	if isCtrlEnter(s) {
		c.Keys.submit()
	}
}

// Tapped picks the option under the pointer and takes the focus.
func (c *Choice) Tapped(ev *fyne.PointEvent) {
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil && !c.focused {
		cv.Focus(c)
	}
	c.pick(c.optionAt(ev.Position))
}

// MouseIn, MouseMoved and MouseOut light the option under the pointer.
func (c *Choice) MouseIn(ev *desktop.MouseEvent)    { c.hover(c.optionAt(ev.Position)) }
func (c *Choice) MouseMoved(ev *desktop.MouseEvent) { c.hover(c.optionAt(ev.Position)) }
func (c *Choice) MouseOut()                         { c.hover(-1) }

func (c *Choice) hover(i int) {
	if i != c.hovered {
		c.hovered = i
		c.Refresh()
	}
}

func (c *Choice) optionAt(p fyne.Position) int {
	for i, l := range c.labels {
		if p.X < l.Position().X+l.Size().Width+c.Theme().Size(theme.SizeNamePadding) {
			return i
		}
	}
	return len(c.options) - 1
}

// CreateRenderer draws the options.
func (c *Choice) CreateRenderer() fyne.WidgetRenderer {
	for range c.options {
		c.focus = append(c.focus, canvas.NewCircle(nil))
		c.icons = append(c.icons, &canvas.Image{FillMode: canvas.ImageFillContain})
		c.labels = append(c.labels, canvas.NewText("", nil))
	}
	r := &choiceRenderer{c: c}
	r.Refresh()
	return r
}

type choiceRenderer struct{ c *Choice }

func (r *choiceRenderer) Destroy() {}

func (r *choiceRenderer) Objects() []fyne.CanvasObject {
	c := r.c
	objs := make([]fyne.CanvasObject, 0, 3*len(c.options))
	for i := range c.options {
		objs = append(objs, c.focus[i], c.icons[i], c.labels[i])
	}
	return objs
}

func (r *choiceRenderer) sizes() (pad, icon, gap, height float32) {
	th := r.c.Theme()
	pad = th.Size(theme.SizeNamePadding)
	icon = th.Size(theme.SizeNameInlineIcon)
	gap = th.Size(theme.SizeNameInnerPadding) * 2
	text := fyne.MeasureText("Mg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height
	// As tall as a radio button or an entry beside it.
	height = max(icon+2*pad, text+2*th.Size(theme.SizeNameInnerPadding))
	return
}

func (r *choiceRenderer) MinSize() fyne.Size {
	pad, icon, gap, height := r.sizes()
	w := pad
	for i, l := range r.c.labels {
		if i > 0 {
			w += gap
		}
		w += icon + 2*pad + l.MinSize().Width
	}
	return fyne.NewSize(w+pad, height)
}

func (r *choiceRenderer) Layout(size fyne.Size) {
	c := r.c
	pad, icon, gap, _ := r.sizes()
	mid := size.Height / 2
	x := pad
	for i, l := range c.labels {
		if i > 0 {
			x += gap
		}
		ring := icon + 2*pad
		c.focus[i].Move(fyne.NewPos(x, mid-ring/2))
		c.focus[i].Resize(fyne.NewSquareSize(ring))
		c.icons[i].Move(fyne.NewPos(x+pad, mid-icon/2))
		c.icons[i].Resize(fyne.NewSquareSize(icon))
		x += ring
		ls := l.MinSize()
		l.Move(fyne.NewPos(x, mid-ls.Height/2))
		l.Resize(ls)
		x += ls.Width
	}
}

func (r *choiceRenderer) Refresh() {
	c := r.c
	th := c.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	for i, o := range c.options {
		if i == c.selected {
			c.icons[i].Resource = theme.NewPrimaryThemedResource(theme.RadioButtonCheckedIcon())
		} else {
			c.icons[i].Resource = theme.NewColoredResource(theme.RadioButtonIcon(), theme.ColorNameInputBorder)
		}
		c.icons[i].Refresh()
		c.labels[i].Text = o
		c.labels[i].TextSize = th.Size(theme.SizeNameText)
		c.labels[i].Color = th.Color(theme.ColorNameForeground, v)
		c.labels[i].Refresh()
		switch {
		case c.focused && i == c.selected:
			c.focus[i].FillColor = th.Color(theme.ColorNameFocus, v)
		case i == c.hovered:
			c.focus[i].FillColor = th.Color(theme.ColorNameHover, v)
		default:
			c.focus[i].FillColor = color.Transparent
		}
		c.focus[i].Refresh()
	}
	r.Layout(c.Size())
}
