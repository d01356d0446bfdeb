package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
)

// thinkingView is the model's reasoning: one muted line ("Thinking…" or
// the reasoning's first line) until tapped open, then the whole text
// beside a bar. Its text keeps updating while it streams, open or not.
type thinkingView struct {
	widget.BaseWidget
	kit.WindowedParts
	chevron *canvas.Image
	label   *canvas.Text
	body    *markdown.TextFlow
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
	t.WindowedParts = kit.NewWindowedParts(t.Parts)
	t.body = markdown.NewPlainFlow("", fyne.TextStyle{Italic: true}, "", theme.ColorNamePlaceHolder)
	t.body.Resized = resized
	t.ExtendBaseWidget(t)
	t.Restyle()
	return t
}

// SetText shows text; live marks it as still arriving.
func (t *thinkingView) SetText(text string, live bool) {
	if text == t.text && live == t.live {
		return
	}
	t.text, t.live = text, live
	t.body.SetSpans([]markdown.InlineSpan{{Text: text, Style: fyne.TextStyle{Italic: true}, Color: theme.ColorNamePlaceHolder}})
	t.Restyle()
	// A size that stays the same brings no layout: redo it here.
	if s := t.Size(); s.Width > 0 {
		kit.LayoutSelf(t, s)
		canvas.Refresh(t)
	}
}

func (t *thinkingView) Tapped(*fyne.PointEvent) {
	t.setOpen(!t.isOpen())
	t.Restyle()
	t.resized()
	t.Refresh()
}

func (t *thinkingView) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (t *thinkingView) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: t} }

func (t *thinkingView) metrics() (line, icon, gap, indent float32) {
	th := t.Theme()
	line = fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{Italic: true}).Height
	icon = th.Size(theme.SizeNameInlineIcon) - 4
	gap = th.Size(theme.SizeNamePadding)
	indent = icon + gap
	return
}

func (t *thinkingView) HeightAt(width float32) float32 {
	line, _, gap, indent := t.metrics()
	if !t.isOpen() || t.text == "" {
		return line
	}
	return line + gap + t.body.HeightAt(width-indent)
}

// Restyle also rebuilds the header, whose words depend on state.
func (t *thinkingView) Restyle() {
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
		if first := kit.FirstTextLine(t.text); first != "" {
			label += "  " + first
		}
	}
	t.header = label
	t.label.TextStyle = fyne.TextStyle{Italic: true}
	t.label.TextSize = th.Size(theme.SizeNameText)
	t.label.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	t.bar.FillColor = kit.ResolveColor(th, theme.ColorNameInputBorder)
	t.body.Hidden = !open
	t.bar.Hidden = !open
}

func (t *thinkingView) Arrange(size fyne.Size) {
	line, icon, gap, indent := t.metrics()
	t.chevron.Move(fyne.NewPos(0, (line-icon)/2))
	t.chevron.Resize(fyne.NewSquareSize(icon))
	t.label.Text = kit.TruncateText(t.header, size.Width-indent, t.label.TextSize, t.label.TextStyle)
	t.label.Move(fyne.NewPos(indent, 0))
	t.label.Resize(fyne.NewSize(size.Width-indent, line))
	if t.body.Hidden {
		return
	}
	bh := t.body.HeightAt(size.Width - indent)
	t.bar.Move(fyne.NewPos(icon/2-1, line+gap))
	t.bar.Resize(fyne.NewSize(2, bh))
	t.body.Move(fyne.NewPos(indent, line+gap))
	t.body.Resize(fyne.NewSize(size.Width-indent, bh))
}

func (t *thinkingView) Parts() []fyne.CanvasObject {
	return []fyne.CanvasObject{t.chevron, t.label, t.bar, t.body}
}
