package widgets

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// replyView is an assistant reply: a meta line with a Copy action, then
// its parts in order (markdown, thinking, tool-call chips), then how it
// ended or that it is still arriving.
type replyView struct {
	widget.BaseWidget
	windowedParts
	id   string
	env  *chatEnv
	meta *canvas.Text
	copy *copyAction

	parts  []replyPart
	footer fyne.CanvasObject
	// footerKey names what footer shows, to rebuild it only on change.
	footerKey string
	// markdown is the reply's text blocks, joined when copied: a reply of
	// megabytes is not copied on every streamed update.
	markdown []string
}

// replyPart is what one or more consecutive blocks are drawn with: a
// MarkdownView, a thinkingView, or a chipRow for a run of tool calls.
type replyPart struct {
	kind model.BlockKind
	obj  fyne.CanvasObject
}

func newReplyView(id string, env *chatEnv) *replyView {
	v := &replyView{id: id, env: env, meta: &canvas.Text{}}
	v.windowedParts = newWindowedParts(v.objects)
	v.copy = newCopyAction(func() string { return strings.Join(v.markdown, "\n\n") })
	v.ExtendBaseWidget(v)
	v.restyle()
	return v
}

func (v *replyView) update(it *model.ChatItem) {
	// Parts repaint themselves; the reply repaints as a whole only when
	// its shape changed, not for every streamed token.
	reshaped := v.meta.Text != it.Meta
	v.meta.Text = it.Meta
	var md []string
	p := 0
	for i := 0; i < len(it.Blocks); i++ {
		b := &it.Blocks[i]
		end := i + 1
		if b.Kind == model.BlockToolCall {
			for end < len(it.Blocks) && it.Blocks[end].Kind == model.BlockToolCall {
				end++
			}
		}
		if p == len(v.parts) || v.parts[p].kind != b.Kind {
			v.parts = append(v.parts[:p], v.newPart(b.Kind, i))
			reshaped = true
		}
		switch part := v.parts[p].obj.(type) {
		case *MarkdownView:
			part.SetMarkdown(b.Text)
			md = append(md, b.Text)
		case *thinkingView:
			part.setText(b.Text, it.Streaming && end == len(it.Blocks))
		case *chipRow:
			part.set(it.Blocks[i:end])
		}
		p++
		i = end - 1
	}
	reshaped = reshaped || p != len(v.parts)
	v.parts = v.parts[:p]
	v.markdown = md
	if v.setFooter(it) || reshaped {
		if s := v.Size(); s.Width > 0 {
			layoutSelf(v, s)
		}
		// New parts are new objects; the others keep their textures.
		requestFrame(v)
	}
}

func (v *replyView) newPart(kind model.BlockKind, block int) replyPart {
	switch kind {
	case model.BlockThinking:
		key := v.id + "#thinking" + strconv.Itoa(block)
		return replyPart{kind: kind, obj: newThinkingView(
			func() bool { return v.env.expanded[key] },
			func(open bool) { v.env.expanded[key] = open },
			func() { v.env.relayout(v.id) })}
	case model.BlockToolCall:
		return replyPart{kind: kind, obj: newChipRow(v.env.toolTapped)}
	}
	m := NewMarkdownView()
	m.resized = func() { v.env.relayout(v.id) }
	return replyPart{kind: kind, obj: m}
}

// lengthNote ends a reply the model stopped at its output limit: what is
// there is not the whole answer.
const lengthNote = "Cut off at the model's output limit: the reply is incomplete. Ask the model to continue."

// setFooter shows an error, "Aborted", a cut-off reply, or that the reply is streaming,
// reporting whether that changed.
func (v *replyView) setFooter(it *model.ChatItem) bool {
	key := ""
	switch {
	case it.StopReason == "error":
		key = "error:" + it.ErrorMessage
	case it.StopReason == "aborted":
		key = "aborted"
	case it.StopReason == "length":
		key = "length"
	case it.StopReason == model.StopInterrupted:
		key = "interrupted:" + it.ErrorMessage
	case it.Streaming:
		key = "streaming"
	}
	if key == v.footerKey {
		return false
	}
	v.footerKey = key
	switch {
	case key == "":
		v.footer = nil
	case key == "aborted":
		v.footer = newNoteLine(theme.IconNameMediaStop, theme.ColorNamePlaceHolder, "Aborted", false)
	case key == "length":
		v.footer = newNoteLine(theme.IconNameWarning, theme.ColorNameWarning, lengthNote, true)
	case strings.HasPrefix(key, "interrupted:"):
		msg := it.ErrorMessage
		if msg == "" {
			msg = "Incomplete"
		}
		v.footer = newNoteLine(theme.IconNameMediaStop, theme.ColorNamePlaceHolder, msg, false)
	case key == "streaming":
		v.footer = newTextFlow([]inlineSpan{
			// Monospace: the bundled monospace font has the dot.
			{text: "● ", color: theme.ColorNamePrimary, style: fyne.TextStyle{Monospace: true}},
			{text: "Generating…", color: theme.ColorNamePlaceHolder, size: theme.SizeNameCaptionText},
		}, nil)
	default:
		msg := it.ErrorMessage
		if msg == "" {
			msg = "The reply failed."
		}
		v.footer = newNoteLine(theme.IconNameError, theme.ColorNameError, msg, true)
	}
	return true
}

func (v *replyView) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: v} }

func (v *replyView) restyle() {
	th := v.Theme()
	v.meta.TextSize = th.Size(theme.SizeNameCaptionText)
	v.meta.Color = resolveColor(th, theme.ColorNamePlaceHolder)
}

// place lays the reply out for width, moving objects only when apply.
func (v *replyView) place(width float32, apply bool) float32 {
	th := v.Theme()
	ix, iy := chatInsets(th)
	gap := th.Size(theme.SizeNamePadding) * 2.5
	inner := width - 2*ix
	cs := v.copy.MinSize()
	y := iy
	if apply {
		ms := v.meta.MinSize()
		v.meta.Move(fyne.NewPos(ix, y+(cs.Height-ms.Height)/2))
		v.meta.Resize(ms)
		v.copy.Move(fyne.NewPos(width-ix-cs.Width, y))
		v.copy.Resize(cs)
	}
	y += cs.Height + th.Size(theme.SizeNamePadding)
	objs := make([]fyne.CanvasObject, 0, len(v.parts)+1)
	for _, p := range v.parts {
		objs = append(objs, p.obj)
	}
	if v.footer != nil {
		objs = append(objs, v.footer)
	}
	for i, o := range objs {
		if i > 0 {
			y += gap
		}
		h := objHeightAt(o, inner)
		if apply {
			o.Move(fyne.NewPos(ix, y))
			o.Resize(fyne.NewSize(inner, h))
		}
		y += h
	}
	return y + iy
}

func (v *replyView) heightAt(width float32) float32 { return v.place(width, false) }

// selectionKids is the reply's text: its parts, not its meta line or
// footer.
func (v *replyView) selectionKids() []fyne.CanvasObject {
	kids := make([]fyne.CanvasObject, len(v.parts))
	for i, p := range v.parts {
		kids[i] = p.obj
	}
	return kids
}

func (v *replyView) layout(size fyne.Size) { v.place(size.Width, true) }

func (v *replyView) objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{v.meta, v.copy}
	for _, p := range v.parts {
		objs = append(objs, p.obj)
	}
	if v.footer != nil {
		objs = append(objs, v.footer)
	}
	return objs
}
