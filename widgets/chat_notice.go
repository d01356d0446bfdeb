package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// noticeView is a line from the app itself (an error, a retry, an agent
// exit), coloured by its level.
type noticeView struct {
	widget.BaseWidget
	windowedParts
	line  *noteLine
	copy  *copyAction
	text  string
	level model.NoticeLevel
}

func newNoticeView() *noticeView {
	v := &noticeView{level: -1}
	v.windowedParts = newWindowedParts(v.objects)
	v.copy = newCopyAction(func() string { return v.text })
	v.ExtendBaseWidget(v)
	return v
}

func (v *noticeView) update(it *model.ChatItem) {
	text := strings.TrimRight(it.Text, "\n")
	if v.line != nil && text == v.text && it.Level == v.level {
		return
	}
	v.text, v.level = text, it.Level
	switch it.Level {
	case model.NoticeWarning:
		v.line = newNoteLine(theme.IconNameWarning, theme.ColorNameWarning, text, true)
	case model.NoticeError:
		v.line = newNoteLine(theme.IconNameError, theme.ColorNameError, text, true)
	default:
		v.line = newNoteLine(theme.IconNameInfo, theme.ColorNamePlaceHolder, text, false)
	}
	repaintView(v)
}

func (v *noticeView) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: v} }

func (v *noticeView) restyle() {}

func (v *noticeView) place(width float32, apply bool) float32 {
	th := v.Theme()
	ix, iy := chatInsets(th)
	cs := v.copy.MinSize()
	gap := th.Size(theme.SizeNamePadding)
	w := width - 2*ix - cs.Width - gap
	lh := v.line.heightAt(w)
	h := max(lh, cs.Height)
	if apply {
		v.line.Move(fyne.NewPos(ix, iy+(h-lh)/2))
		v.line.Resize(fyne.NewSize(w, lh))
		v.copy.Move(fyne.NewPos(width-ix-cs.Width, iy+(h-cs.Height)/2))
		v.copy.Resize(cs)
	}
	return h + 2*iy
}

func (v *noticeView) heightAt(width float32) float32 { return v.place(width, false) }

func (v *noticeView) layout(size fyne.Size) { v.place(size.Width, true) }

func (v *noticeView) objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{v.line, v.copy}
}
