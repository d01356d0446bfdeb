package markdown

import (
	"image/color"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// linkOpener routes link taps. One is shared by everything a MarkdownView
// draws, so the app can change the handler without re-rendering text.
type linkOpener struct {
	open func(*url.URL)
}

// tap opens dest. Without a handler only web and mail links are opened,
// and only as systemLink cleans them: a model can write any URL, and a
// file: or custom-scheme link should not launch programs just because it
// was clicked.
func (o *linkOpener) tap(dest string) {
	if o != nil && o.open != nil {
		if u, err := url.Parse(dest); err == nil {
			o.open(u)
		}
		return
	}
	if u, ok := systemLink(dest); ok {
		_ = fyne.CurrentApp().OpenURL(u)
	}
}

// linkText is the part of a link on one line. It opens only when tapped;
// nothing is fetched or opened while text streams in.
type linkText struct {
	widget.BaseWidget
	text  *canvas.Text
	under *canvas.Rectangle
	dest  string
	links *linkOpener
	base  float32
}

func newLinkText(text, dest string, col color.Color, m *fontMetric, links *linkOpener) *linkText {
	l := &linkText{
		text:  &canvas.Text{Text: text, Color: col, TextSize: m.size, TextStyle: m.style},
		under: canvas.NewRectangle(col),
		dest:  dest,
		links: links,
		base:  m.baseline,
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *linkText) Tapped(*fyne.PointEvent) {
	l.links.tap(l.dest)
}

func (l *linkText) Cursor() desktop.Cursor {
	return desktop.PointerCursor
}

func (l *linkText) CreateRenderer() fyne.WidgetRenderer {
	return &linkTextRenderer{l: l}
}

type linkTextRenderer struct {
	l *linkText
}

func (r *linkTextRenderer) Layout(size fyne.Size) {
	r.l.text.Resize(size)
	r.l.under.Move(fyne.NewPos(0, r.l.base+2))
	r.l.under.Resize(fyne.NewSize(size.Width, 1))
}

func (r *linkTextRenderer) MinSize() fyne.Size {
	return r.l.text.MinSize()
}

func (r *linkTextRenderer) Refresh() {
	r.Layout(r.l.Size())
	canvas.Refresh(r.l)
}

func (r *linkTextRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.l.text, r.l.under}
}

func (r *linkTextRenderer) Destroy() {}
