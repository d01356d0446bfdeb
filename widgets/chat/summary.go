package chat

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
)

// summaryCard is a compaction or branch summary (collapsed to its first line
// until its header is tapped) or an extension's custom message (always
// open), on a tinted card that sets it apart from the conversation.
type summaryCard struct {
	widget.BaseWidget
	kit.WindowedParts
	id     string
	env    *chatEnv
	bg     *canvas.Rectangle
	header *summaryHeader
	// body renders the summary's markdown: agents write them with
	// headings and lists.
	body *markdown.MarkdownView
	copy *kit.CopyAction

	kind  model.ChatKind
	text  string
	title string
}

func newSummaryCard(id string, env *chatEnv) *summaryCard {
	v := &summaryCard{id: id, env: env, bg: canvas.NewRectangle(nil)}
	v.WindowedParts = kit.NewWindowedParts(v.Parts)
	v.header = newSummaryHeader(v.toggle)
	v.body = markdown.NewMarkdownView()
	v.body.Resized = func() { env.relayout(id) }
	v.copy = kit.NewCopyAction(func() string { return v.text })
	v.ExtendBaseWidget(v)
	v.Restyle()
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
	v.Restyle()
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
	v.Restyle()
	repaintView(v)
}

func (v *summaryCard) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: v} }

func (v *summaryCard) Restyle() {
	th := v.Theme()
	primary := kit.ResolveColor(th, theme.ColorNamePrimary)
	v.bg.FillColor = kit.WithAlpha(primary, 0x14)
	v.bg.StrokeColor = kit.WithAlpha(primary, 0x4c)
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
		preview = kit.FirstTextLine(v.text)
	}
	v.header.Set(icon, v.title, preview, v.collapsible(), v.open())
	body := v.text
	if !v.open() {
		body = ""
	}
	if body != v.body.Markdown() {
		v.body.SetMarkdown(body)
	}
	v.body.Hidden = body == ""
}

func (v *summaryCard) Place(width float32, apply bool) float32 {
	th := v.Theme()
	ix, iy := chatInsets(th)
	pad := th.Size(theme.SizeNameInnerPadding)
	inner := width - 2*ix - 2*pad
	cs := v.copy.MinSize()
	y := iy + pad/2
	hh := max(v.header.HeightAt(inner-cs.Width), cs.Height)
	if apply {
		v.header.Move(fyne.NewPos(ix+pad, y))
		v.header.Resize(fyne.NewSize(inner-cs.Width, hh))
		v.copy.Move(fyne.NewPos(width-ix-pad/2-cs.Width, y))
		v.copy.Resize(cs)
	}
	y += hh
	if !v.body.Hidden {
		y += th.Size(theme.SizeNamePadding)
		bh := v.body.HeightAt(inner)
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

func (v *summaryCard) HeightAt(width float32) float32 { return v.Place(width, false) }

func (v *summaryCard) Arrange(size fyne.Size) { v.Place(size.Width, true) }

func (v *summaryCard) Parts() []fyne.CanvasObject {
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

func (h *summaryHeader) Set(icon fyne.ThemeIconName, title, preview string, canOpen, open bool) {
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
	h.title.Color = kit.ResolveColor(th, theme.ColorNameForeground)
	h.full = preview
	h.preview.TextSize = th.Size(theme.SizeNameText)
	h.preview.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
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

func (h *summaryHeader) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: h} }

func (h *summaryHeader) Restyle() {}

func (h *summaryHeader) HeightAt(float32) float32 {
	return max(h.title.MinSize().Height, h.Theme().Size(theme.SizeNameInlineIcon))
}

func (h *summaryHeader) Arrange(size fyne.Size) {
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
	h.preview.Text = kit.TruncateText(h.full, size.Width-x, h.preview.TextSize, h.preview.TextStyle)
	h.preview.Move(fyne.NewPos(x, (size.Height-ts.Height)/2))
	h.preview.Resize(fyne.NewSize(max(size.Width-x, 0), ts.Height))
}

func (h *summaryHeader) Parts() []fyne.CanvasObject {
	return []fyne.CanvasObject{h.chevron, h.icon, h.title, h.preview}
}
