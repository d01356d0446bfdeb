package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// chipMaxWidth keeps a chip with long arguments from filling the row; the
// sidebar has the details.
const chipMaxWidth = 420

// toolChip is a compact pill naming a tool call ("⚙ bash · ls -la") with
// an icon for how far it has got. Tapping it asks for the call's details.
type toolChip struct {
	widget.BaseWidget
	id      string
	name    string
	args    string
	status  model.ToolStatus
	tapped  func(id string)
	hovered bool

	bg    *canvas.Rectangle
	icon  *canvas.Image
	label *canvas.Text
	shown model.ToolStatus
}

func newToolChip(tapped func(string)) *toolChip {
	c := &toolChip{tapped: tapped, bg: canvas.NewRectangle(color.Transparent),
		icon: &canvas.Image{FillMode: canvas.ImageFillContain}, label: &canvas.Text{}, shown: -1}
	c.ExtendBaseWidget(c)
	return c
}

func (c *toolChip) set(b *model.ChatBlock) {
	if c.id == b.ToolCallID && c.name == b.ToolName && c.args == b.ArgsSummary && c.status == b.ToolStatus {
		return
	}
	c.id, c.name, c.args, c.status = b.ToolCallID, b.ToolName, b.ArgsSummary, b.ToolStatus
	c.restyle()
	if s := c.Size(); s.Width > 0 {
		c.layout(s)
	}
	canvas.Refresh(c)
}

func (c *toolChip) text() string {
	t := "⚙ " + c.name
	if c.args != "" {
		t += " · " + c.args
	}
	return t
}

func (c *toolChip) Tapped(*fyne.PointEvent) {
	if c.tapped != nil {
		c.tapped(c.id)
	}
}

func (c *toolChip) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (c *toolChip) MouseIn(*desktop.MouseEvent) {
	c.hovered = true
	c.Refresh()
}

func (c *toolChip) MouseMoved(*desktop.MouseEvent) {}

func (c *toolChip) MouseOut() {
	c.hovered = false
	c.Refresh()
}

func (c *toolChip) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: c} }

func (c *toolChip) metrics() (padX, padY, icon, gap float32) {
	th := c.Theme()
	return th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNamePadding),
		th.Size(theme.SizeNameInlineIcon) - 4, th.Size(theme.SizeNamePadding) * 1.5
}

// width is what the chip needs, up to chipMaxWidth.
func (c *toolChip) width() float32 {
	padX, _, icon, gap := c.metrics()
	tw := fyne.MeasureText(c.text(), c.label.TextSize, c.label.TextStyle).Width
	return min(2*padX+icon+gap+tw, chipMaxWidth)
}

func (c *toolChip) heightAt(float32) float32 {
	_, padY, icon, _ := c.metrics()
	return max(icon, fyne.MeasureText("M", c.label.TextSize, c.label.TextStyle).Height) + 2*padY
}

func chipStatusIcon(s model.ToolStatus) (fyne.ThemeIconName, fyne.ThemeColorName) {
	switch s {
	case model.ToolRunning:
		return theme.IconNameViewRefresh, theme.ColorNamePrimary
	case model.ToolDone:
		return theme.IconNameConfirm, theme.ColorNameSuccess
	case model.ToolFailed:
		return theme.IconNameError, theme.ColorNameError
	}
	return theme.IconNameMoreHorizontal, theme.ColorNamePlaceHolder
}

func (c *toolChip) restyle() {
	th := c.Theme()
	name, col := chipStatusIcon(c.status)
	c.icon.Resource = theme.NewColoredResource(th.Icon(name), col)
	if c.shown != c.status {
		if c.shown >= 0 {
			c.icon.Refresh()
		}
		c.shown = c.status
	}
	c.label.TextSize = th.Size(theme.SizeNameText) - 1
	c.label.TextStyle = fyne.TextStyle{Monospace: true}
	c.label.Color = resolveColor(th, theme.ColorNameForeground)
	fg := resolveColor(th, theme.ColorNameForeground)
	c.bg.FillColor = withAlpha(fg, 0x10)
	if c.hovered {
		c.bg.FillColor = withAlpha(fg, 0x22)
	}
	c.bg.StrokeColor = withAlpha(fg, 0x26)
	c.bg.StrokeWidth = 1
	c.bg.CornerRadius = c.heightAt(0) / 2
}

func (c *toolChip) layout(size fyne.Size) {
	padX, _, icon, gap := c.metrics()
	c.bg.Resize(fyne.NewSize(size.Width-1, size.Height-1))
	c.icon.Move(fyne.NewPos(padX, (size.Height-icon)/2))
	c.icon.Resize(fyne.NewSquareSize(icon))
	tw := size.Width - 2*padX - icon - gap
	c.label.Text = truncateText(c.text(), tw, c.label.TextSize, c.label.TextStyle)
	ts := c.label.MinSize()
	c.label.Move(fyne.NewPos(padX+icon+gap, (size.Height-ts.Height)/2))
	c.label.Resize(fyne.NewSize(tw, ts.Height))
}

func (c *toolChip) objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{c.bg, c.icon, c.label}
}

// chipRow lays consecutive tool chips out left to right, wrapping.
type chipRow struct {
	widget.BaseWidget
	windowedParts
	chips  []*toolChip
	tapped func(string)
}

func newChipRow(tapped func(string)) *chipRow {
	r := &chipRow{tapped: tapped}
	r.windowedParts = newWindowedParts(r.objects)
	r.ExtendBaseWidget(r)
	return r
}

// set shows one chip per block, reusing the chips it has.
func (r *chipRow) set(blocks []model.ChatBlock) {
	for len(r.chips) < len(blocks) {
		r.chips = append(r.chips, newToolChip(r.tapped))
	}
	r.chips = r.chips[:len(blocks)]
	for i := range blocks {
		r.chips[i].set(&blocks[i])
	}
	if s := r.Size(); s.Width > 0 {
		r.place(s.Width, true)
		r.apply()
	}
}

func (r *chipRow) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: r} }

func (r *chipRow) restyle() {}

// place positions the chips for width and returns the height used.
func (r *chipRow) place(width float32, apply bool) float32 {
	gap := r.Theme().Size(theme.SizeNamePadding) * 1.5
	x, y, rowH := float32(0), float32(0), float32(0)
	for _, c := range r.chips {
		w := min(c.width(), width)
		h := c.heightAt(w)
		if x > 0 && x+w > width {
			x, y, rowH = 0, y+rowH+gap, 0
		}
		if apply {
			c.Move(fyne.NewPos(x, y))
			c.Resize(fyne.NewSize(w, h))
		}
		x += w + gap
		rowH = max(rowH, h)
	}
	return y + rowH
}

func (r *chipRow) heightAt(width float32) float32 { return r.place(width, false) }

func (r *chipRow) layout(size fyne.Size) { r.place(size.Width, true) }

func (r *chipRow) objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, len(r.chips))
	for i, c := range r.chips {
		objs[i] = c
	}
	return objs
}
