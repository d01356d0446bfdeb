package chat

import (
	"bytes"
	"image"
	_ "image/gif" // thumbnails arrive as encoded bytes
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
)

// thumbMax bounds each side of an image thumbnail.
const thumbMax = 160

// userView is a prompt the user sent: a tinted bubble on the right with
// its images above the text, and a Copy action beside it.
type userView struct {
	widget.BaseWidget
	kit.WindowedParts
	text   *markdown.TextFlow
	thumbs []fyne.CanvasObject
	sizes  []fyne.Size
	bubble *canvas.Rectangle
	copy   *kit.CopyAction
	edit   *kit.CopyAction
	// state says the prompt waits for the agent, or was not taken: then
	// back and again act on it.
	state       *canvas.Text
	back, again *kit.CopyAction
	waiting     bool
	stuck       bool
	src         string
	id          string
	env         *chatEnv

	valid bool
	laidW float32
	g     userGeometry
}

type userGeometry struct {
	bubble, text fyne.Position
	bubbleSize   fyne.Size
	textSize     fyne.Size
	thumbs       []fyne.Position
	copy, edit   fyne.Position
	state        fyne.Position
	back, again  fyne.Position
	height       float32
}

func newUserView(id string, env *chatEnv) *userView {
	v := &userView{bubble: canvas.NewRectangle(nil)}
	v.WindowedParts = kit.NewWindowedParts(v.Parts)
	v.text = markdown.NewPlainFlow("", fyne.TextStyle{}, "", "")
	v.text.Resized = func() {
		v.valid = false
		env.relayout(id)
	}
	v.copy = kit.NewCopyAction(func() string { return v.src })
	v.id, v.env = id, env
	v.edit = kit.NewQuietAction(theme.IconNameDocumentCreate, "Edit", func() {
		if env.editPrompt != nil {
			env.editPrompt(v.id, v.src)
		}
	})
	v.state = canvas.NewText("", nil)
	v.back = kit.NewQuietAction(theme.IconNameContentUndo, "Back to editor", func() {
		if env.takeBack != nil {
			env.takeBack(v.id)
		}
	})
	v.again = kit.NewQuietAction(theme.IconNameMailSend, "Send again", func() {
		if env.sendAgain != nil {
			env.sendAgain(v.id)
		}
	})
	v.ExtendBaseWidget(v)
	v.Restyle()
	return v
}

func (v *userView) update(it *model.ChatItem) {
	v.src = it.Text
	v.waiting, v.stuck = it.Waiting, it.Stuck
	switch {
	case it.Stuck:
		v.state.Text = "Not taken by the agent yet"
	case it.Waiting:
		v.state.Text = "Waiting for the agent…"
	default:
		v.state.Text = ""
	}
	v.styleState()
	v.text.SetSpans([]markdown.InlineSpan{{Text: strings.TrimRight(it.Text, "\n")}})
	v.thumbs, v.sizes = v.thumbs[:0], v.sizes[:0]
	for _, t := range it.Images {
		obj, size := decodeThumb(t)
		v.thumbs = append(v.thumbs, obj)
		v.sizes = append(v.sizes, size)
	}
	v.valid = false
	repaintView(v)
}

// decodeThumb decodes an attached image, scaled to fit thumbMax; bytes that
// do not decode are named instead.
func decodeThumb(t model.Thumbnail) (fyne.CanvasObject, fyne.Size) {
	img, _, err := image.Decode(bytes.NewReader(t.Data))
	if err != nil {
		label := "[image]"
		if t.MimeType != "" {
			label = "[" + t.MimeType + "]"
		}
		txt := canvas.NewText(label, theme.Color(theme.ColorNamePlaceHolder))
		return txt, txt.MinSize()
	}
	b := img.Bounds()
	w, h := float32(b.Dx()), float32(b.Dy())
	if s := thumbMax / max(w, h); s < 1 {
		w, h = w*s, h*s
	}
	c := canvas.NewImageFromImage(img)
	c.FillMode = canvas.ImageFillContain
	c.CornerRadius = 4
	return c, fyne.NewSize(max(w, 1), max(h, 1))
}

func (v *userView) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: v} }

// styleState colours the waiting line: quiet while it waits, a warning
// once the agent has not taken it for long.
func (v *userView) styleState() {
	th := v.Theme()
	v.state.TextSize = th.Size(theme.SizeNameCaptionText)
	v.state.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	if v.stuck {
		v.state.Color = kit.ResolveColor(th, theme.ColorNameWarning)
	}
	v.state.Refresh()
}

func (v *userView) Restyle() {
	v.styleState()
	th := v.Theme()
	v.bubble.FillColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNamePrimary), 0x2a)
	v.bubble.CornerRadius = th.Size(theme.SizeNameInputRadius) * 2
	v.valid = false
}

func (v *userView) HeightAt(width float32) float32 {
	return v.geometry(width).height
}

func (v *userView) geometry(width float32) *userGeometry {
	if v.valid && v.laidW == width {
		return &v.g
	}
	th := v.Theme()
	ix, iy := chatInsets(th)
	padX, padY := th.Size(theme.SizeNameInnerPadding)+2, th.Size(theme.SizeNameInnerPadding)
	gap := th.Size(theme.SizeNamePadding) * 1.5
	avail := max(width-2*ix, 1)
	maxBubble := avail
	if avail > 320 {
		maxBubble = avail * 0.8
	}
	inner := maxBubble - 2*padX

	g := userGeometry{}
	// Thumbnails flow left to right, wrapping inside the bubble.
	x, y, rowH, thumbsW := float32(0), float32(0), float32(0), float32(0)
	for _, s := range v.sizes {
		if x > 0 && x+s.Width > inner {
			x, y, rowH = 0, y+rowH+gap, 0
		}
		g.thumbs = append(g.thumbs, fyne.NewPos(x, y))
		x += s.Width + gap
		rowH = max(rowH, s.Height)
		thumbsW = max(thumbsW, x-gap)
	}
	thumbsH := float32(0)
	if len(v.sizes) > 0 {
		thumbsH = y + rowH
	}
	textW, textH := float32(0), float32(0)
	if len(v.text.Spans) > 0 && v.text.Spans[0].Text != "" {
		textW = min(v.text.NaturalWidth(inner)+1, inner)
		textH = v.text.HeightAt(textW)
	}
	innerW := min(max(textW, thumbsW), inner)
	innerH := thumbsH + textH
	if thumbsH > 0 && textH > 0 {
		innerH += gap
	}
	g.bubbleSize = fyne.NewSize(innerW+2*padX, innerH+2*padY)
	g.bubble = fyne.NewPos(width-ix-g.bubbleSize.Width, iy)
	for i := range g.thumbs {
		g.thumbs[i] = g.thumbs[i].Add(fyne.NewPos(g.bubble.X+padX, iy+padY))
	}
	g.text = fyne.NewPos(g.bubble.X+padX, iy+padY+innerH-textH)
	g.textSize = fyne.NewSize(innerW, textH)

	cs := v.copy.MinSize()
	es := fyne.Size{}
	if v.editable() {
		es = v.edit.MinSize()
	}
	bottom := iy + g.bubbleSize.Height
	if g.bubble.X-ix >= cs.Width+es.Width+2*gap {
		g.copy = fyne.NewPos(g.bubble.X-gap-cs.Width, bottom-cs.Height)
	} else {
		g.copy = fyne.NewPos(width-ix-cs.Width, bottom+2)
		bottom += 2 + cs.Height
	}
	g.edit = fyne.NewPos(g.copy.X-gap/2-es.Width, g.copy.Y)
	if v.waiting {
		// Under the bubble, right-aligned: what the prompt waits for, and
		// what can be done about a prompt that is stuck.
		ss := v.state.MinSize()
		row := ss.Height
		x := width - ix
		if v.stuck && v.env != nil && v.env.takeBack != nil {
			as, bs := v.again.MinSize(), v.back.MinSize()
			x -= as.Width
			g.again = fyne.NewPos(x, bottom+2)
			x -= gap/2 + bs.Width
			g.back = fyne.NewPos(x, bottom+2)
			x -= gap
			row = max(row, as.Height, bs.Height)
		}
		g.state = fyne.NewPos(x-ss.Width, bottom+2+(row-ss.Height)/2)
		bottom += 2 + row
	}
	g.height = bottom + iy

	v.g, v.laidW, v.valid = g, width, true
	return &v.g
}

func (v *userView) Arrange(size fyne.Size) {
	g := v.geometry(size.Width)
	v.bubble.Move(g.bubble)
	v.bubble.Resize(g.bubbleSize)
	v.text.Move(g.text)
	v.text.Resize(g.textSize)
	for i, t := range v.thumbs {
		t.Move(g.thumbs[i])
		t.Resize(v.sizes[i])
	}
	v.copy.Move(g.copy)
	v.copy.Resize(v.copy.MinSize())
	v.edit.Hidden = !v.editable() || v.waiting
	v.edit.Move(g.edit)
	v.edit.Resize(v.edit.MinSize())
	v.state.Hidden = !v.waiting
	v.state.Move(g.state)
	v.state.Resize(v.state.MinSize())
	actions := v.stuck && v.env != nil && v.env.takeBack != nil
	for _, a := range []struct {
		b   *kit.CopyAction
		pos fyne.Position
	}{{v.back, g.back}, {v.again, g.again}} {
		a.b.Hidden = !actions
		a.b.Move(a.pos)
		a.b.Resize(a.b.MinSize())
	}
}

// editable says whether the prompt can be edited and sent again: the chat
// offers it when the window can branch the conversation.
func (v *userView) editable() bool { return v.env != nil && v.env.editPrompt != nil }

func (v *userView) Parts() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{v.bubble}
	objs = append(objs, v.thumbs...)
	return append(objs, v.text, v.copy, v.edit, v.state, v.back, v.again)
}
