package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// MdQuote is a block quote: its blocks indented beside a bar.
type MdQuote struct {
	widget.BaseWidget
	body *FlowStack
	bar  *canvas.Rectangle
	win  kit.RowWindow
}

// SetWindow implements windowed.
func (q *MdQuote) SetWindow(top, bottom float32) {
	q.win = kit.RowWindow{Top: top, Bottom: bottom}
	kit.WindowChild(q.body, q.win)
}

func newMDQuote(body *FlowStack) *MdQuote {
	q := &MdQuote{body: body, bar: canvas.NewRectangle(nil), win: kit.Everything}
	q.ExtendBaseWidget(q)
	return q
}

func (q *MdQuote) indent() float32 {
	return 3 + q.Theme().Size(theme.SizeNameInnerPadding)*1.5
}

func (q *MdQuote) HeightAt(width float32) float32 {
	return q.body.HeightAt(width - q.indent())
}

func (q *MdQuote) CreateRenderer() fyne.WidgetRenderer {
	r := &mdQuoteRenderer{q: q}
	r.Refresh()
	return r
}

type mdQuoteRenderer struct {
	q *MdQuote
}

func (r *mdQuoteRenderer) Layout(size fyne.Size) {
	in := r.q.indent()
	h := r.q.body.HeightAt(size.Width - in)
	r.q.bar.Resize(fyne.NewSize(3, h))
	r.q.body.Move(fyne.NewPos(in, 0))
	r.q.body.Resize(fyne.NewSize(size.Width-in, h))
	kit.WindowChild(r.q.body, r.q.win)
}

func (r *mdQuoteRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.q.HeightAt(r.q.Size().Width))
}

func (r *mdQuoteRenderer) Refresh() {
	th := r.q.Theme()
	r.q.bar.FillColor = kit.ResolveColor(th, theme.ColorNameInputBorder)
	r.q.bar.CornerRadius = 1.5
	r.Layout(r.q.Size())
	canvas.Refresh(r.q)
}

func (r *mdQuoteRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.q.bar, r.q.body}
}

func (r *mdQuoteRenderer) Destroy() {}
