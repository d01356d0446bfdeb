package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// bannerDetailRows is how many lines of detail show before they scroll.
const bannerDetailRows = 8

// Banner reports that the agent exited or crashed: a title such as
// "KnightCode agent exited — exit code 3", the tail of its stderr, a
// Restart button and a close button. It starts hidden; Show reveals it.
type Banner struct {
	widget.BaseWidget

	// OnRestart restarts the agent; without it there is no Restart button.
	OnRestart func()
	// OnDismiss is called after the close button hid the banner.
	OnDismiss func()

	title  string
	level  model.NoticeLevel
	doc    *monoDoc
	detail *monoView
	scroll *syncScroll

	bg, accent, detailBg *canvas.Rectangle
	icon                 *widget.Icon
	titleText            *canvas.Text
	restart              *widget.Button
	dismiss              *miniButton
}

// NewBanner returns a hidden banner.
func NewBanner() *Banner {
	b := &Banner{doc: newMonoDoc(), level: model.NoticeError}
	b.ExtendBaseWidget(b)
	b.Hide()
	return b
}

// SetMessage sets what the banner says: a one-line title, plain-text detail
// (a stderr tail; may be empty) and whether it is an error, a warning or
// neutral news (NoticeInfo).
func (b *Banner) SetMessage(title, detail string, level model.NoticeLevel) {
	b.title, b.level = title, level
	b.doc.lines.setText(detail)
	// The last lines of stderr are the ones that say what went wrong.
	b.doc.follow = true
	b.Refresh()
}

// Title returns the title shown.
func (b *Banner) Title() string { return b.title }

func (b *Banner) CreateRenderer() fyne.WidgetRenderer {
	b.bg = canvas.NewRectangle(nil)
	b.accent = canvas.NewRectangle(nil)
	b.detailBg = canvas.NewRectangle(nil)
	b.icon = widget.NewIcon(nil)
	b.titleText = canvas.NewText("", nil)
	b.titleText.TextStyle.Bold = true
	b.detail = newMonoView(b.doc)
	b.scroll = newMonoScroll(b.detail)
	b.restart = widget.NewButtonWithIcon("Restart", theme.ViewRefreshIcon(), func() {
		if b.OnRestart != nil {
			b.OnRestart()
		}
	})
	b.restart.Importance = widget.HighImportance
	b.dismiss = newMiniIconButton(theme.CancelIcon(), func() {
		b.Hide()
		if b.OnDismiss != nil {
			b.OnDismiss()
		}
	})
	r := &bannerRenderer{b: b}
	r.Refresh()
	return r
}

type bannerRenderer struct {
	b *Banner
}

func (r *bannerRenderer) Destroy() {}

func (r *bannerRenderer) Objects() []fyne.CanvasObject {
	b := r.b
	return []fyne.CanvasObject{b.bg, b.accent, b.icon, b.titleText, b.restart, b.dismiss, b.detailBg, b.scroll}
}

func (r *bannerRenderer) sizes() (pad, icon, titleH, detailH float32) {
	th := r.b.Theme()
	pad = th.Size(theme.SizeNamePadding)
	icon = th.Size(theme.SizeNameInlineIcon)
	titleH = max(r.b.restart.MinSize().Height, icon)
	if n := r.b.doc.lines.count(); n > 0 {
		line := r.b.detail.cell.Height
		detailH = float32(min(n, bannerDetailRows))*line + th.Size(theme.SizeNameInnerPadding)
	}
	return
}

func (r *bannerRenderer) MinSize() fyne.Size {
	pad, icon, titleH, detailH := r.sizes()
	h := 2*pad + titleH
	if detailH > 0 {
		h += detailH + pad
	}
	w := 3*pad + icon + r.b.titleText.MinSize().Width + r.b.restart.MinSize().Width + icon
	return fyne.NewSize(w, h)
}

func (r *bannerRenderer) Layout(size fyne.Size) {
	b := r.b
	pad, icon, titleH, detailH := r.sizes()
	b.bg.Resize(size)
	b.accent.Resize(fyne.NewSize(pad, size.Height))

	x := 2 * pad
	mid := pad + titleH/2
	b.icon.Move(fyne.NewPos(x, mid-icon/2))
	b.icon.Resize(fyne.NewSquareSize(icon))
	x += icon + pad

	right := size.Width - pad
	b.dismiss.Resize(fyne.NewSquareSize(icon))
	right -= icon
	b.dismiss.Move(fyne.NewPos(right, mid-icon/2))
	right -= pad
	if b.OnRestart != nil {
		b.restart.Show()
		rs := b.restart.MinSize()
		right -= rs.Width
		b.restart.Move(fyne.NewPos(right, mid-rs.Height/2))
		b.restart.Resize(rs)
		right -= pad
	} else {
		b.restart.Hide()
	}
	b.titleText.Text = fitText(b.title, max(0, right-x), b.titleText.TextSize, b.titleText.TextStyle)
	ts := b.titleText.MinSize()
	b.titleText.Move(fyne.NewPos(x, mid-ts.Height/2))
	b.titleText.Resize(ts)

	if detailH > 0 {
		y := 2*pad + titleH
		b.detailBg.Show()
		b.detailBg.Move(fyne.NewPos(2*pad, y))
		b.detailBg.Resize(fyne.NewSize(size.Width-3*pad, detailH))
		b.scroll.Show()
		inner := b.Theme().Size(theme.SizeNameInnerPadding)
		b.scroll.Move(b.detailBg.Position().AddXY(0, inner/2))
		b.scroll.Resize(b.detailBg.Size().SubtractWidthHeight(0, inner))
	} else {
		b.detailBg.Hide()
		b.scroll.Hide()
	}
}

func (r *bannerRenderer) Refresh() {
	b := r.b
	th := b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	var tone fyne.ThemeColorName
	var icon fyne.Resource
	switch b.level {
	case model.NoticeError:
		tone, icon = theme.ColorNameError, theme.NewErrorThemedResource(theme.ErrorIcon())
	case model.NoticeWarning:
		tone, icon = theme.ColorNameWarning, theme.NewWarningThemedResource(theme.WarningIcon())
	default:
		// Neutral news, such as the agent ending the session by itself.
		tone, icon = theme.ColorNamePrimary, theme.NewPrimaryThemedResource(theme.InfoIcon())
	}
	b.bg.FillColor = tint(th.Color(tone, v), 0x26)
	b.accent.FillColor = th.Color(tone, v)
	b.detailBg.FillColor = th.Color(theme.ColorNameInputBackground, v)
	b.detailBg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	b.icon.SetResource(icon)
	b.titleText.Text = b.title
	b.titleText.TextSize = th.Size(theme.SizeNameText)
	b.titleText.Color = th.Color(theme.ColorNameForeground, v)
	b.detail.Refresh()
	b.scroll.Refresh()
	if b.doc.follow {
		b.scroll.ScrollToBottom()
	}
	r.Layout(b.Size())
	canvas.Refresh(b)
}

// tint is c at alpha a: a background that takes the hue of a theme colour
// and works on light and dark backgrounds alike.
func tint(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}
