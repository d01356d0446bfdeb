package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
)

// noteLine is an icon beside a line of plain text in one colour, on a tint
// of that colour when it needs attention: reply errors and notices.
type noteLine struct {
	widget.BaseWidget
	kit.WindowedParts
	icon     *canvas.Image
	text     *markdown.TextFlow
	bg       *canvas.Rectangle
	iconName fyne.ThemeIconName
	color    fyne.ThemeColorName
	tinted   bool
}

func newNoteLine(iconName fyne.ThemeIconName, col fyne.ThemeColorName, text string, tinted bool) *noteLine {
	c := &noteLine{icon: &canvas.Image{FillMode: canvas.ImageFillContain}, bg: canvas.NewRectangle(nil),
		iconName: iconName, color: col, tinted: tinted}
	c.WindowedParts = kit.NewWindowedParts(c.Parts)
	c.text = markdown.NewPlainFlow(text, fyne.TextStyle{}, "", col)
	c.ExtendBaseWidget(c)
	c.Restyle()
	return c
}

func (c *noteLine) metrics() (pad, icon, gap float32) {
	th := c.Theme()
	pad = 0
	if c.tinted {
		pad = th.Size(theme.SizeNameInnerPadding)
	}
	return pad, th.Size(theme.SizeNameInlineIcon) - 2, th.Size(theme.SizeNamePadding) * 2
}

func (c *noteLine) HeightAt(width float32) float32 {
	pad, icon, gap := c.metrics()
	return max(icon, c.text.HeightAt(width-2*pad-icon-gap)) + 2*pad
}

func (c *noteLine) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: c} }

func (c *noteLine) Restyle() {
	th := c.Theme()
	c.icon.Resource = theme.NewColoredResource(th.Icon(c.iconName), c.color)
	c.bg.FillColor = kit.WithAlpha(kit.ResolveColor(th, c.color), 0x1f)
	c.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	c.bg.Hidden = !c.tinted
}

func (c *noteLine) Arrange(size fyne.Size) {
	pad, icon, gap := c.metrics()
	c.bg.Resize(size)
	c.icon.Move(fyne.NewPos(pad, pad))
	c.icon.Resize(fyne.NewSquareSize(icon))
	tw := size.Width - 2*pad - icon - gap
	c.text.Move(fyne.NewPos(pad+icon+gap, pad))
	c.text.Resize(fyne.NewSize(tw, c.text.HeightAt(tw)))
}

func (c *noteLine) Parts() []fyne.CanvasObject {
	return []fyne.CanvasObject{c.bg, c.icon, c.text}
}
