package status

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// NotificationList shows notices newest first, one line each, with the
// selected one in full under the list (SelectedText gives it, for a Copy
// button). The arrows move in the list, Esc calls OnClose. The list is virtualised: a history of hundreds of extension
// errors builds a screenful of rows. The app shows it in a dialog, for
// extension notifications and for the extension-error log alike.
type NotificationList struct {
	widget.BaseWidget

	// OnClose is called for Esc in the list.
	OnClose func()

	notices  []model.Notice // newest first
	selected int            // index into notices, or -1
	now      func() time.Time

	list   *kit.KeyList
	empty  *widget.Label
	header *canvas.Text
	detail *widget.Label
	scroll *container.Scroll
}

// NewNotificationList returns an empty list.
func NewNotificationList() *NotificationList {
	n := &NotificationList{selected: -1, now: time.Now}
	n.list = kit.NewKeyList(
		func() int { return len(n.notices) },
		func() fyne.CanvasObject { return newNoticeRow() },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(n.notices) {
				o.(*noticeRow).Set(n.notices[i], n.now())
			}
		})
	n.list.OnSelect = func(i widget.ListItemID) { n.SelectRow(i) }
	n.list.OnEscape = func() {
		if n.OnClose != nil {
			n.OnClose()
		}
	}
	n.empty = widget.NewLabel("No notifications yet.")
	n.empty.Alignment = fyne.TextAlignCenter
	n.empty.Importance = widget.LowImportance
	n.header = canvas.NewText("", nil)
	n.detail = widget.NewLabel("")
	n.detail.Wrapping = fyne.TextWrapWord
	n.scroll = container.NewVScroll(n.detail)
	n.ExtendBaseWidget(n)
	return n
}

// SetNotices shows notices, given oldest first as ToastLayer.History and
// logs keep them. A selected notice stays selected if it is still there.
func (n *NotificationList) SetNotices(notices []model.Notice) {
	var keep *model.Notice
	if n.selected >= 0 {
		keep = &n.notices[n.selected]
	}
	rev := make([]model.Notice, len(notices))
	for i, x := range notices {
		rev[len(notices)-1-i] = x
	}
	sel := -1
	for i := range rev {
		if keep != nil && rev[i] == *keep {
			sel = i
			break
		}
	}
	n.notices, n.selected = rev, -1
	n.list.Reset(sel)
	if sel < 0 {
		n.showDetail()
	}
	n.Refresh()
}

// SelectedText is the selected notice's whole text, or "".
func (n *NotificationList) SelectedText() string {
	if n.selected < 0 || n.selected >= len(n.notices) {
		return ""
	}
	return n.notices[n.selected].Text
}

// SelectRow selects notice i and shows its whole text below the list; an
// index out of range clears the selection.
func (n *NotificationList) SelectRow(i int) {
	n.selected = i
	n.showDetail()
}

func (n *NotificationList) showDetail() {
	if n.selected < 0 || n.selected >= len(n.notices) {
		n.selected = -1
		n.header.Text = ""
		n.detail.SetText("Select a notification to read all of it.")
	} else {
		x := n.notices[n.selected]
		n.header.Text = x.Time.Format("2006-01-02 15:04:05") + "  ·  " + levelName(x.Level)
		if x.Source != "" {
			n.header.Text += "  ·  " + x.Source
		}
		n.detail.SetText(x.Text)
	}
	n.header.Refresh()
	n.scroll.ScrollToTop()
}

func levelName(l model.NoticeLevel) string {
	switch l {
	case model.NoticeError:
		return "Error"
	case model.NoticeWarning:
		return "Warning"
	}
	return "Info"
}

func (n *NotificationList) CreateRenderer() fyne.WidgetRenderer {
	n.showDetail()
	r := &notificationListRenderer{n: n, sep: widget.NewSeparator()}
	r.Refresh()
	return r
}

type notificationListRenderer struct {
	n   *NotificationList
	sep *widget.Separator
}

func (r *notificationListRenderer) Destroy() {}

func (r *notificationListRenderer) Objects() []fyne.CanvasObject {
	n := r.n
	return []fyne.CanvasObject{n.list, n.empty, r.sep, n.header, n.scroll}
}

// MinSize is what a dialog needs to be usable; the list scrolls.
func (r *notificationListRenderer) MinSize() fyne.Size { return fyne.NewSize(560, 380) }

func (r *notificationListRenderer) Layout(size fyne.Size) {
	n := r.n
	pad := n.Theme().Size(theme.SizeNamePadding)
	detailH := max(size.Height*0.35, 96)
	listH := size.Height - detailH - pad
	n.list.Resize(fyne.NewSize(size.Width, listH))
	n.empty.Move(fyne.NewPos(0, listH/2-n.empty.MinSize().Height/2))
	n.empty.Resize(fyne.NewSize(size.Width, n.empty.MinSize().Height))
	r.sep.Move(fyne.NewPos(0, listH))
	r.sep.Resize(fyne.NewSize(size.Width, n.Theme().Size(theme.SizeNameSeparatorThickness)))
	y := listH + pad
	hs := n.header.MinSize()
	n.header.Move(fyne.NewPos(2*pad, y+pad))
	n.header.Resize(hs)
	if n.header.Text != "" {
		y += hs.Height + pad
	}
	n.scroll.Move(fyne.NewPos(0, y))
	n.scroll.Resize(fyne.NewSize(size.Width, size.Height-y))
}

func (r *notificationListRenderer) Refresh() {
	n := r.n
	th := n.Theme()
	n.empty.Hidden = len(n.notices) > 0
	n.header.TextSize = th.Size(theme.SizeNameCaptionText)
	n.header.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	n.header.Refresh()
	n.list.Refresh()
	r.Layout(n.Size())
	canvas.Refresh(n)
}

// noticeRow is one line of the list: time, level icon, source and the
// text's first line.
type noticeRow struct {
	widget.BaseWidget
	level  model.NoticeLevel
	when   *canvas.Text
	icon   *canvas.Image
	source *canvas.Text
	text   *canvas.Text
	full   string
	src    string
	fit    kit.FittedText
}

func newNoticeRow() *noticeRow {
	r := &noticeRow{when: canvas.NewText("", nil), icon: &canvas.Image{FillMode: canvas.ImageFillContain},
		source: canvas.NewText("", nil), text: canvas.NewText("", nil)}
	r.when.TextStyle.Monospace = true
	r.source.TextStyle.Bold = true
	r.ExtendBaseWidget(r)
	return r
}

func (r *noticeRow) Set(x model.Notice, now time.Time) {
	r.level = x.Level
	layout := "15:04:05"
	if y, m, d := now.Date(); x.Time.Year() != y || x.Time.Month() != m || x.Time.Day() != d {
		layout = "Jan _2 15:04"
	}
	r.when.Text = x.Time.Format(layout)
	r.src, r.full = x.Source, x.Text
	r.Refresh()
}

func (r *noticeRow) HeightAt(float32) float32 {
	th := r.Theme()
	return max(fyne.MeasureText("Mg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height, th.Size(theme.SizeNameInlineIcon)) +
		th.Size(theme.SizeNamePadding)*2
}

func (r *noticeRow) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: r} }

func (r *noticeRow) Restyle() {
	th := r.Theme()
	size := th.Size(theme.SizeNameText)
	r.when.TextSize, r.source.TextSize, r.text.TextSize = size*0.9, size, size
	r.when.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	r.source.Color = kit.ResolveColor(th, theme.ColorNameForeground)
	r.text.Color = r.source.Color
	switch r.level {
	case model.NoticeError:
		r.icon.Resource = theme.NewErrorThemedResource(th.Icon(theme.IconNameError))
	case model.NoticeWarning:
		r.icon.Resource = theme.NewWarningThemedResource(th.Icon(theme.IconNameWarning))
	default:
		r.icon.Resource = theme.NewPrimaryThemedResource(th.Icon(theme.IconNameInfo))
	}
	r.icon.Refresh()
}

func (r *noticeRow) Arrange(size fyne.Size) {
	th := r.Theme()
	pad := th.Size(theme.SizeNamePadding)
	icon := th.Size(theme.SizeNameInlineIcon) * 0.8
	mid := size.Height / 2
	x := 2 * pad
	ws := fyne.MeasureText("Jan 00 00:00", r.when.TextSize, r.when.TextStyle)
	r.when.Move(fyne.NewPos(x, mid-ws.Height/2))
	r.when.Resize(ws)
	x += ws.Width + 2*pad
	r.icon.Move(fyne.NewPos(x, mid-icon/2))
	r.icon.Resize(fyne.NewSquareSize(icon))
	x += icon + 2*pad
	r.source.Text = ""
	if r.src != "" {
		// A long name must leave room for the text.
		r.source.Text = kit.FitText(kit.OneLine(r.src), size.Width/4, r.source.TextSize, r.source.TextStyle)
		ss := r.source.MinSize()
		r.source.Move(fyne.NewPos(x, mid-ss.Height/2))
		r.source.Resize(ss)
		x += ss.Width + 2*pad
	}
	r.text.Text = r.fit.Fit(r.full, size.Width-x-2*pad, r.text.TextSize, r.text.TextStyle)
	ts := r.text.MinSize()
	r.text.Move(fyne.NewPos(x, mid-ts.Height/2))
	r.text.Resize(ts)
	r.when.Refresh()
	r.source.Refresh()
	r.text.Refresh()
}

func (r *noticeRow) Parts() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.when, r.icon, r.source, r.text}
}
