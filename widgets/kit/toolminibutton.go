package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// MiniButton is an icon or a short caption-sized link that fits a line of
// text. widget.Button carries inner padding that would make a card header
// twice as tall as its text.
type MiniButton struct {
	widget.BaseWidget

	icon     fyne.Resource // or
	label    string
	onTapped func()

	hovered bool
	// Confirmed shows that the tap did its work ("Copied", a tick) until
	// the pointer leaves: no timer runs.
	Confirmed bool
}

// Confirm shows that the tap did its work, until the pointer leaves.
func (b *MiniButton) Confirm() {
	b.Confirmed = true
	b.Refresh()
}

var (
	_ fyne.Tappable      = (*MiniButton)(nil)
	_ desktop.Hoverable  = (*MiniButton)(nil)
	_ desktop.Cursorable = (*MiniButton)(nil)
)

// NewMiniIconButton is a MiniButton that shows icon.
func NewMiniIconButton(icon fyne.Resource, tapped func()) *MiniButton {
	b := &MiniButton{icon: icon, onTapped: tapped}
	b.ExtendBaseWidget(b)
	return b
}

// NewMiniLinkButton is a MiniButton that shows label as a link.
func NewMiniLinkButton(label string, tapped func()) *MiniButton {
	b := &MiniButton{label: label, onTapped: tapped}
	b.ExtendBaseWidget(b)
	return b
}

func (b *MiniButton) Tapped(*fyne.PointEvent) {
	if b.onTapped != nil {
		b.onTapped()
	}
}

func (b *MiniButton) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (b *MiniButton) MouseIn(*desktop.MouseEvent) {
	b.hovered = true
	b.Refresh()
}

func (b *MiniButton) MouseMoved(*desktop.MouseEvent) {}

func (b *MiniButton) MouseOut() {
	b.hovered, b.Confirmed = false, false
	b.Refresh()
}

func (b *MiniButton) CreateRenderer() fyne.WidgetRenderer {
	r := &miniButtonRenderer{b: b, bg: canvas.NewRectangle(nil)}
	if b.icon != nil {
		r.img = canvas.NewImageFromResource(b.icon)
		r.img.FillMode = canvas.ImageFillContain
		r.objects = []fyne.CanvasObject{r.bg, r.img}
	} else {
		r.text = canvas.NewText(b.label, nil)
		r.objects = []fyne.CanvasObject{r.bg, r.text}
	}
	r.Refresh()
	return r
}

type miniButtonRenderer struct {
	b       *MiniButton
	bg      *canvas.Rectangle
	img     *canvas.Image
	text    *canvas.Text
	objects []fyne.CanvasObject
}

func (r *miniButtonRenderer) Destroy() {}

func (r *miniButtonRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *miniButtonRenderer) pad() float32 {
	return r.b.Theme().Size(theme.SizeNamePadding) / 2
}

func (r *miniButtonRenderer) MinSize() fyne.Size {
	th := r.b.Theme()
	p := r.pad()
	if r.img != nil {
		s := th.Size(theme.SizeNameInlineIcon) - 2*p
		return fyne.NewSquareSize(s + 2*p)
	}
	t := fyne.MeasureText(r.text.Text, r.text.TextSize, r.text.TextStyle)
	return fyne.NewSize(t.Width+4*p, t.Height)
}

func (r *miniButtonRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	p := r.pad()
	if r.img != nil {
		r.img.Move(fyne.NewSquareOffsetPos(p))
		r.img.Resize(size.SubtractWidthHeight(2*p, 2*p))
		return
	}
	t := r.text.MinSize()
	r.text.Move(fyne.NewPos((size.Width-t.Width)/2, (size.Height-t.Height)/2))
	r.text.Resize(t)
}

func (r *miniButtonRenderer) Refresh() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.bg.CornerRadius = th.Size(theme.SizeNameSelectionRadius)
	if r.b.hovered {
		r.bg.FillColor = th.Color(theme.ColorNameHover, v)
	} else {
		r.bg.FillColor = nil
	}
	r.bg.Refresh()
	if r.img != nil {
		res := r.b.icon
		if r.b.Confirmed {
			res = theme.NewSuccessThemedResource(theme.ConfirmIcon())
		}
		r.img.Resource = res
		r.img.Refresh()
	} else {
		r.text.Text = r.b.label
		if r.b.Confirmed {
			r.text.Text = "Copied"
		}
		r.text.TextSize = th.Size(theme.SizeNameCaptionText)
		r.text.Color = th.Color(theme.ColorNameHyperlink, v)
		r.text.Refresh()
	}
	r.Layout(r.b.Size())
}

// SetMiniLabel changes a link button's caption, redrawing it only if the
// caption changed.
func SetMiniLabel(b *MiniButton, label string) {
	if b.label != label {
		b.label = label
		b.Refresh()
	}
}
