package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// summaryCard is a compaction or branch summary (collapsed to its first line
// until its header is tapped) or an extension's custom message (always
// open), on a tinted card that sets it apart from the conversation.
type summaryCard struct {
	widget.BaseWidget
	windowedParts
	id     string
	env    *chatEnv
	bg     *canvas.Rectangle
	header *summaryHeader
	body   *textFlow
	copy   *copyAction

	kind  model.ChatKind
	text  string
	title string
}

func newSummaryCard(id string, env *chatEnv) *summaryCard {
	v := &summaryCard{id: id, env: env, bg: canvas.NewRectangle(nil)}
	v.windowedParts = newWindowedParts(v.objects)
	v.header = newSummaryHeader(v.toggle)
	v.body = newTextFlow(nil, nil)
	v.body.resized = func() { env.relayout(id) }
	v.copy = newCopyAction(func() string { return v.text })
	v.ExtendBaseWidget(v)
	v.restyle()
	return v
}

func (v *summaryCard) key() string { return v.id + "#card" }

// collapsible cards are the summaries; a custom message is shown whole.
func (v *summaryCard) collapsible() bool { return v.kind != model.ChatCustom }

func (v *summaryCard) open() bool { return !v.collapsible() || v.env.expanded[v.key()] }

func (v *summaryCard) toggle() {
	if !v.collapsible() {
		return
	}
	v.env.expanded[v.key()] = !v.env.expanded[v.key()]
	v.restyle()
	v.env.relayout(v.id)
	v.Refresh()
}

func (v *summaryCard) update(it *model.ChatItem) {
	v.kind = it.Kind
	v.text = strings.TrimRight(it.Text, "\n")
	switch it.Kind {
	case model.ChatCompaction:
		v.title = "Context compacted"
		if it.Streaming {
			v.title = "Compacting context…"
		}
	case model.ChatBranchSummary:
		v.title = "Summary of the abandoned branch"
	default:
		v.title = it.Meta
		if v.title == "" {
			v.title = "Extension message"
		}
	}
	v.restyle()
	repaintView(v)
}

func (v *summaryCard) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: v} }

func (v *summaryCard) restyle() {
	th := v.Theme()
	primary := resolveColor(th, theme.ColorNamePrimary)
	v.bg.FillColor = withAlpha(primary, 0x14)
	v.bg.StrokeColor = withAlpha(primary, 0x4c)
	v.bg.StrokeWidth = 1
	v.bg.CornerRadius = th.Size(theme.SizeNameInputRadius) * 1.5
	icon := theme.IconNameHistory
	switch v.kind {
	case model.ChatBranchSummary:
		icon = theme.IconNameContentRedo
	case model.ChatCustom:
		icon = theme.IconNameInfo
	}
	preview := ""
	if !v.open() {
		preview = firstTextLine(v.text)
	}
	v.header.set(icon, v.title, preview, v.collapsible(), v.open())
	body := v.text
	if !v.open() {
		body = ""
	}
	v.body.setSpans([]inlineSpan{{text: body}})
	v.body.Hidden = body == ""
}

func (v *summaryCard) place(width float32, apply bool) float32 {
	th := v.Theme()
	ix, iy := chatInsets(th)
	pad := th.Size(theme.SizeNameInnerPadding)
	inner := width - 2*ix - 2*pad
	cs := v.copy.MinSize()
	y := iy + pad/2
	hh := max(v.header.heightAt(inner-cs.Width), cs.Height)
	if apply {
		v.header.Move(fyne.NewPos(ix+pad, y))
		v.header.Resize(fyne.NewSize(inner-cs.Width, hh))
		v.copy.Move(fyne.NewPos(width-ix-pad/2-cs.Width, y))
		v.copy.Resize(cs)
	}
	y += hh
	if !v.body.Hidden {
		y += th.Size(theme.SizeNamePadding)
		bh := v.body.heightAt(inner)
		if apply {
			v.body.Move(fyne.NewPos(ix+pad, y))
			v.body.Resize(fyne.NewSize(inner, bh))
		}
		y += bh + pad/2
	}
	y += pad / 2
	if apply {
		v.bg.Move(fyne.NewPos(ix, iy))
		v.bg.Resize(fyne.NewSize(width-2*ix, y-iy))
	}
	return y + iy
}

func (v *summaryCard) heightAt(width float32) float32 { return v.place(width, false) }

func (v *summaryCard) layout(size fyne.Size) { v.place(size.Width, true) }

func (v *summaryCard) objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{v.bg, v.header, v.body, v.copy}
}

// summaryHeader is a card's icon and title, and for a collapsible card a
// chevron and the first line of the summary; tapping it opens or closes.
type summaryHeader struct {
	widget.BaseWidget
	onTap   func()
	icon    *canvas.Image
	chevron *canvas.Image
	title   *canvas.Text
	preview *canvas.Text
	full    string
	canOpen bool
}

func newSummaryHeader(onTap func()) *summaryHeader {
	h := &summaryHeader{onTap: onTap, icon: &canvas.Image{FillMode: canvas.ImageFillContain},
		chevron: &canvas.Image{FillMode: canvas.ImageFillContain}, title: &canvas.Text{}, preview: &canvas.Text{}}
	h.ExtendBaseWidget(h)
	return h
}

func (h *summaryHeader) set(icon fyne.ThemeIconName, title, preview string, canOpen, open bool) {
	th := h.Theme()
	h.icon.Resource = theme.NewColoredResource(th.Icon(icon), theme.ColorNamePrimary)
	chev := theme.IconNameMenuExpand
	if open {
		chev = theme.IconNameArrowDropDown
	}
	h.chevron.Resource = theme.NewColoredResource(th.Icon(chev), theme.ColorNamePlaceHolder)
	h.chevron.Hidden = !canOpen
	h.canOpen = canOpen
	h.title.Text = title
	h.title.TextStyle = fyne.TextStyle{Bold: true}
	h.title.TextSize = th.Size(theme.SizeNameText)
	h.title.Color = resolveColor(th, theme.ColorNameForeground)
	h.full = preview
	h.preview.TextSize = th.Size(theme.SizeNameText)
	h.preview.Color = resolveColor(th, theme.ColorNamePlaceHolder)
	h.icon.Refresh()
	h.chevron.Refresh()
}

func (h *summaryHeader) Tapped(*fyne.PointEvent) {
	if h.canOpen {
		h.onTap()
	}
}

func (h *summaryHeader) Cursor() desktop.Cursor {
	if h.canOpen {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}

func (h *summaryHeader) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: h} }

func (h *summaryHeader) restyle() {}

func (h *summaryHeader) heightAt(float32) float32 {
	return max(h.title.MinSize().Height, h.Theme().Size(theme.SizeNameInlineIcon))
}

func (h *summaryHeader) layout(size fyne.Size) {
	th := h.Theme()
	icon := th.Size(theme.SizeNameInlineIcon) - 2
	gap := th.Size(theme.SizeNamePadding) * 1.5
	x := float32(0)
	if h.canOpen {
		h.chevron.Move(fyne.NewPos(0, (size.Height-icon)/2))
		h.chevron.Resize(fyne.NewSquareSize(icon))
		x += icon + gap/2
	}
	h.icon.Move(fyne.NewPos(x, (size.Height-icon)/2))
	h.icon.Resize(fyne.NewSquareSize(icon))
	x += icon + gap
	ts := h.title.MinSize()
	h.title.Move(fyne.NewPos(x, (size.Height-ts.Height)/2))
	h.title.Resize(ts)
	x += ts.Width + gap
	h.preview.Text = truncateText(h.full, size.Width-x, h.preview.TextSize, h.preview.TextStyle)
	h.preview.Move(fyne.NewPos(x, (size.Height-ts.Height)/2))
	h.preview.Resize(fyne.NewSize(max(size.Width-x, 0), ts.Height))
}

func (h *summaryHeader) objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{h.chevron, h.icon, h.title, h.preview}
}
