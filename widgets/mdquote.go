package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// mdQuote is a block quote: its blocks indented beside a bar.
type mdQuote struct {
	widget.BaseWidget
	body *flowStack
	bar  *canvas.Rectangle
	win  rowWindow
}

// setWindow implements windowed.
func (q *mdQuote) setWindow(top, bottom float32) {
	q.win = rowWindow{top, bottom}
	windowChild(q.body, q.win)
}

func newMDQuote(body *flowStack) *mdQuote {
	q := &mdQuote{body: body, bar: canvas.NewRectangle(nil), win: everything}
	q.ExtendBaseWidget(q)
	return q
}

func (q *mdQuote) indent() float32 {
	return 3 + q.Theme().Size(theme.SizeNameInnerPadding)*1.5
}

func (q *mdQuote) heightAt(width float32) float32 {
	return q.body.heightAt(width - q.indent())
}

func (q *mdQuote) CreateRenderer() fyne.WidgetRenderer {
	r := &mdQuoteRenderer{q: q}
	r.Refresh()
	return r
}

type mdQuoteRenderer struct {
	q *mdQuote
}

func (r *mdQuoteRenderer) Layout(size fyne.Size) {
	in := r.q.indent()
	h := r.q.body.heightAt(size.Width - in)
	r.q.bar.Resize(fyne.NewSize(3, h))
	r.q.body.Move(fyne.NewPos(in, 0))
	r.q.body.Resize(fyne.NewSize(size.Width-in, h))
	windowChild(r.q.body, r.q.win)
}

func (r *mdQuoteRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.q.heightAt(r.q.Size().Width))
}

func (r *mdQuoteRenderer) Refresh() {
	th := r.q.Theme()
	r.q.bar.FillColor = resolveColor(th, theme.ColorNameInputBorder)
	r.q.bar.CornerRadius = 1.5
	r.Layout(r.q.Size())
	canvas.Refresh(r.q)
}

func (r *mdQuoteRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.q.bar, r.q.body}
}

func (r *mdQuoteRenderer) Destroy() {}
