package prompt

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// attachChip is a file that was not attached: its name and why, in the
// error colour, with a button to clear it.
type attachChip struct {
	widget.BaseWidget
	a      model.Attachment
	bg     *canvas.Rectangle
	icon   *canvas.Image
	name   *canvas.Text
	msg    []*canvas.Text
	remove *kit.MiniButton
}

func newAttachChip(remove func()) *attachChip {
	c := &attachChip{bg: canvas.NewRectangle(nil), icon: &canvas.Image{FillMode: canvas.ImageFillContain},
		name: canvas.NewText("", nil)}
	c.name.TextStyle.Bold = true
	c.remove = kit.NewMiniIconButton(theme.CancelIcon(), remove)
	c.ExtendBaseWidget(c)
	return c
}

func (c *attachChip) Set(a model.Attachment, _ *decodedThumb) {
	c.a = a
	c.Refresh()
}

// Size matches a tile's frame, so chips and thumbnails line up.
func (c *attachChip) Size() fyne.Size {
	over := c.Theme().Size(theme.SizeNameInlineIcon) / 2
	return fyne.NewSize(attachChipW, over+attachThumbH)
}

func (c *attachChip) HeightAt(float32) float32 { return c.Size().Height }

func (c *attachChip) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: c} }

func (c *attachChip) Restyle() {
	th := c.Theme()
	c.bg.FillColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNameError), 0x26)
	c.bg.StrokeColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNameError), 0x99)
	c.bg.StrokeWidth = 1
	c.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	c.icon.Resource = theme.NewErrorThemedResource(theme.ErrorIcon())
	c.name.Color = kit.ResolveColor(th, theme.ColorNameForeground)
}

func (c *attachChip) Arrange(size fyne.Size) {
	th := c.Theme()
	over := th.Size(theme.SizeNameInlineIcon) / 2
	pad := th.Size(theme.SizeNamePadding)
	icon := th.Size(theme.SizeNameInlineIcon) * 0.8
	capSize := th.Size(theme.SizeNameCaptionText)
	capH := fyne.MeasureText("Mg", capSize, fyne.TextStyle{}).Height
	c.bg.Move(fyne.NewPos(0, over))
	c.bg.Resize(fyne.NewSize(size.Width, attachThumbH))
	c.icon.Move(fyne.NewPos(2*pad, over+2*pad))
	c.icon.Resize(fyne.NewSquareSize(icon))
	rs := c.remove.MinSize()
	c.remove.Move(fyne.NewPos(size.Width-pad-rs.Width, over+pad))
	c.remove.Resize(rs)

	x := 3*pad + icon
	textW := size.Width - x - 2*pad - rs.Width
	c.name.TextSize = capSize
	c.name.Text = kit.FitText(kit.OneLine(c.a.Name), textW, capSize, c.name.TextStyle)
	c.name.Move(fyne.NewPos(x, over+2*pad+(icon-capH)/2))
	c.name.Resize(fyne.NewSize(textW, capH))
	c.name.Refresh()
	// The message may use the full width below the icon and the button.
	lines := kit.WrapPlain(c.a.Error, size.Width-4*pad, capSize, fyne.TextStyle{}, 2)
	for len(c.msg) < len(lines) {
		c.msg = append(c.msg, canvas.NewText("", nil))
	}
	c.msg = c.msg[:len(lines)]
	col := kit.ResolveColor(th, theme.ColorNameError)
	for i, s := range lines {
		m := c.msg[i]
		m.Text, m.TextSize, m.Color = s, capSize, col
		m.Move(fyne.NewPos(2*pad, over+2*pad+icon+pad/2+capH*float32(i)))
		m.Resize(fyne.NewSize(size.Width-4*pad, capH))
		m.Refresh()
	}
}

func (c *attachChip) Parts() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{c.bg, c.icon, c.name}
	for _, m := range c.msg {
		objs = append(objs, m)
	}
	return append(objs, c.remove)
}

// attachRemove is a small × in a filled circle: it sits on a photo's
// corner, where a bare icon would vanish against the picture.
type attachRemove struct {
	widget.BaseWidget
	onTap   func()
	hovered bool
	circle  *canvas.Circle
	cross   *canvas.Image
}

var (
	_ fyne.Tappable      = (*attachRemove)(nil)
	_ desktop.Hoverable  = (*attachRemove)(nil)
	_ desktop.Cursorable = (*attachRemove)(nil)
)

func newAttachRemove(tap func()) *attachRemove {
	b := &attachRemove{onTap: tap, circle: canvas.NewCircle(nil), cross: &canvas.Image{FillMode: canvas.ImageFillContain}}
	b.ExtendBaseWidget(b)
	return b
}

func (b *attachRemove) Tapped(*fyne.PointEvent) { b.onTap() }

func (b *attachRemove) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (b *attachRemove) MouseIn(*desktop.MouseEvent) { b.hovered = true; b.Refresh() }

func (b *attachRemove) MouseMoved(*desktop.MouseEvent) {}

func (b *attachRemove) MouseOut() { b.hovered = false; b.Refresh() }

func (b *attachRemove) HeightAt(float32) float32 { return b.Theme().Size(theme.SizeNameInlineIcon) }

func (b *attachRemove) CreateRenderer() fyne.WidgetRenderer {
	b.Restyle()
	return &kit.SelfRenderer{W: b}
}

func (b *attachRemove) Restyle() {
	th := b.Theme()
	bg, fg := theme.ColorNameForeground, theme.ColorNameBackground
	if b.hovered {
		bg, fg = theme.ColorNameError, theme.ColorNameForegroundOnError
	}
	b.circle.FillColor = kit.ResolveColor(th, bg)
	b.circle.StrokeColor = kit.ResolveColor(th, theme.ColorNameBackground)
	b.circle.StrokeWidth = 1.5
	b.cross.Resource = theme.NewColoredResource(th.Icon(theme.IconNameCancel), fg)
	b.circle.Refresh()
	b.cross.Refresh()
}

func (b *attachRemove) Arrange(size fyne.Size) {
	b.circle.Resize(size)
	in := size.Width / 5
	b.cross.Move(fyne.NewSquareOffsetPos(in))
	b.cross.Resize(size.SubtractWidthHeight(2*in, 2*in))
}

func (b *attachRemove) Parts() []fyne.CanvasObject {
	return []fyne.CanvasObject{b.circle, b.cross}
}
