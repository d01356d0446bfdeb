package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// thinkingView is the model's reasoning: one muted line ("Thinking…" or
// the reasoning's first line) until tapped open, then the whole text
// beside a bar. Its text keeps updating while it streams, open or not.
type thinkingView struct {
	widget.BaseWidget
	windowedParts
	chevron *canvas.Image
	label   *canvas.Text
	body    *textFlow
	bar     *canvas.Rectangle

	text   string
	live   bool
	header string
	// isOpen and setOpen keep the open state outside the view, which may
	// be recycled; resized asks for the row to be measured again.
	isOpen   func() bool
	setOpen  func(bool)
	resized  func()
	lastOpen bool
}

func newThinkingView(isOpen func() bool, setOpen func(bool), resized func()) *thinkingView {
	t := &thinkingView{chevron: &canvas.Image{FillMode: canvas.ImageFillContain}, label: &canvas.Text{},
		bar: canvas.NewRectangle(nil), isOpen: isOpen, setOpen: setOpen, resized: resized}
	t.windowedParts = newWindowedParts(t.objects)
	t.body = newPlainFlow("", fyne.TextStyle{Italic: true}, "", theme.ColorNamePlaceHolder)
	t.body.resized = resized
	t.ExtendBaseWidget(t)
	t.restyle()
	return t
}

// setText shows text; live marks it as still arriving.
func (t *thinkingView) setText(text string, live bool) {
	if text == t.text && live == t.live {
		return
	}
	t.text, t.live = text, live
	t.body.setSpans([]inlineSpan{{text: text, style: fyne.TextStyle{Italic: true}, color: theme.ColorNamePlaceHolder}})
	t.restyle()
	// A size that stays the same brings no layout: redo it here.
	if s := t.Size(); s.Width > 0 {
		layoutSelf(t, s)
		canvas.Refresh(t)
	}
}

func (t *thinkingView) Tapped(*fyne.PointEvent) {
	t.setOpen(!t.isOpen())
	t.restyle()
	t.resized()
	t.Refresh()
}

func (t *thinkingView) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (t *thinkingView) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: t} }

func (t *thinkingView) metrics() (line, icon, gap, indent float32) {
	th := t.Theme()
	line = fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{Italic: true}).Height
	icon = th.Size(theme.SizeNameInlineIcon) - 4
	gap = th.Size(theme.SizeNamePadding)
	indent = icon + gap
	return
}

func (t *thinkingView) heightAt(width float32) float32 {
	line, _, gap, indent := t.metrics()
	if !t.isOpen() || t.text == "" {
		return line
	}
	return line + gap + t.body.heightAt(width-indent)
}

// restyle also rebuilds the header, whose words depend on state.
func (t *thinkingView) restyle() {
	th := t.Theme()
	open := t.isOpen()
	icon := theme.IconNameMenuExpand
	if open {
		icon = theme.IconNameArrowDropDown
	}
	t.chevron.Resource = theme.NewColoredResource(th.Icon(icon), theme.ColorNamePlaceHolder)
	if open != t.lastOpen {
		t.chevron.Refresh()
		t.lastOpen = open
	}
	label := "Thinking"
	if t.live {
		label = "Thinking…"
	}
	if !open {
		if first := firstTextLine(t.text); first != "" {
			label += "  " + first
		}
	}
	t.header = label
	t.label.TextStyle = fyne.TextStyle{Italic: true}
	t.label.TextSize = th.Size(theme.SizeNameText)
	t.label.Color = resolveColor(th, theme.ColorNamePlaceHolder)
	t.bar.FillColor = resolveColor(th, theme.ColorNameInputBorder)
	t.body.Hidden = !open
	t.bar.Hidden = !open
}

func (t *thinkingView) layout(size fyne.Size) {
	line, icon, gap, indent := t.metrics()
	t.chevron.Move(fyne.NewPos(0, (line-icon)/2))
	t.chevron.Resize(fyne.NewSquareSize(icon))
	t.label.Text = truncateText(t.header, size.Width-indent, t.label.TextSize, t.label.TextStyle)
	t.label.Move(fyne.NewPos(indent, 0))
	t.label.Resize(fyne.NewSize(size.Width-indent, line))
	if t.body.Hidden {
		return
	}
	bh := t.body.heightAt(size.Width - indent)
	t.bar.Move(fyne.NewPos(icon/2-1, line+gap))
	t.bar.Resize(fyne.NewSize(2, bh))
	t.body.Move(fyne.NewPos(indent, line+gap))
	t.body.Resize(fyne.NewSize(size.Width-indent, bh))
}

func (t *thinkingView) objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{t.chevron, t.label, t.bar, t.body}
}
