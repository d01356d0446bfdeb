package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// mdList is a bullet, numbered or task list: each item's marker sits in a
// column to the left of the item's blocks.
type mdList struct {
	widget.BaseWidget
	markers []string
	bodies  []*flowStack
	// loose lists (items separated by blank lines) get paragraph spacing.
	loose bool
	// ordered markers are numbers. Others are symbols, drawn monospace
	// because the bundled monospace font has ◦ ▪ ☐ ☑ and the body font
	// does not, so they look the same on every machine.
	ordered bool

	texts []*canvas.Text
}

func newMDList(markers []string, bodies []*flowStack, loose, ordered bool) *mdList {
	l := &mdList{markers: markers, bodies: bodies, loose: loose, ordered: ordered}
	l.ExtendBaseWidget(l)
	return l
}

func (l *mdList) itemGap(th fyne.Theme) float32 {
	if l.loose {
		return th.Size(theme.SizeNameInnerPadding)
	}
	return th.Size(theme.SizeNameLineSpacing)
}

func (l *mdList) markerStyle() fyne.TextStyle {
	return fyne.TextStyle{Monospace: !l.ordered}
}

// indent is the width of the marker column.
func (l *mdList) indent(th fyne.Theme) float32 {
	size := th.Size(theme.SizeNameText)
	w := size * 1.2
	for _, m := range l.markers {
		w = max(w, fyne.MeasureText(m, size, l.markerStyle()).Width)
	}
	return w + th.Size(theme.SizeNameInnerPadding)
}

func (l *mdList) heightAt(width float32) float32 {
	th := l.Theme()
	inner := width - l.indent(th)
	h := float32(0)
	for i, b := range l.bodies {
		if i > 0 {
			h += l.itemGap(th)
		}
		h += b.heightAt(inner)
	}
	return h
}

func (l *mdList) CreateRenderer() fyne.WidgetRenderer {
	r := &mdListRenderer{l: l}
	r.Refresh()
	return r
}

type mdListRenderer struct {
	l *mdList
}

func (r *mdListRenderer) Layout(size fyne.Size) {
	l := r.l
	th := l.Theme()
	indent := l.indent(th)
	pad := th.Size(theme.SizeNameInnerPadding)
	// Sit each marker on the baseline of its item's first line of text.
	textSize := th.Size(theme.SizeNameText)
	drv := fyne.CurrentApp().Driver()
	_, textBase := drv.RenderedTextSize("M", textSize, fyne.TextStyle{}, nil)
	_, markBase := drv.RenderedTextSize("M", textSize, l.markerStyle(), nil)
	drop := max(textBase-markBase, 0)
	y := float32(0)
	for i, b := range l.bodies {
		if i > 0 {
			y += l.itemGap(th)
		}
		h := b.heightAt(size.Width - indent)
		m := l.texts[i]
		ms := m.MinSize()
		// Numbers line up on their right edge, like a word processor's.
		m.Move(fyne.NewPos(indent-pad-ms.Width, y+drop))
		m.Resize(ms)
		b.Move(fyne.NewPos(indent, y))
		b.Resize(fyne.NewSize(size.Width-indent, h))
		y += h
	}
}

func (r *mdListRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.l.heightAt(r.l.Size().Width))
}

func (r *mdListRenderer) Refresh() {
	th := r.l.Theme()
	r.l.texts = r.l.texts[:0]
	for _, m := range r.l.markers {
		r.l.texts = append(r.l.texts, &canvas.Text{Text: m, TextSize: th.Size(theme.SizeNameText),
			Color: resolveColor(th, theme.ColorNameForeground), TextStyle: r.l.markerStyle()})
	}
	r.Layout(r.l.Size())
	canvas.Refresh(r.l)
}

func (r *mdListRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, 2*len(r.l.bodies))
	for _, t := range r.l.texts {
		objs = append(objs, t)
	}
	for _, b := range r.l.bodies {
		objs = append(objs, b)
	}
	return objs
}

func (r *mdListRenderer) Destroy() {}

// mdQuote is a block quote: its blocks indented beside a bar.
type mdQuote struct {
	widget.BaseWidget
	body *flowStack
	bar  *canvas.Rectangle
}

func newMDQuote(body *flowStack) *mdQuote {
	q := &mdQuote{body: body, bar: canvas.NewRectangle(nil)}
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

// ruleLine is a thematic break.
type ruleLine struct {
	widget.BaseWidget
	line *canvas.Rectangle
}

func newRuleLine() *ruleLine {
	r := &ruleLine{line: canvas.NewRectangle(nil)}
	r.ExtendBaseWidget(r)
	return r
}

func (r *ruleLine) heightAt(float32) float32 {
	return r.Theme().Size(theme.SizeNameInnerPadding)*2 + 1
}

func (r *ruleLine) CreateRenderer() fyne.WidgetRenderer {
	rr := &ruleLineRenderer{r: r}
	rr.Refresh()
	return rr
}

type ruleLineRenderer struct {
	r *ruleLine
}

func (rr *ruleLineRenderer) Layout(size fyne.Size) {
	rr.r.line.Move(fyne.NewPos(0, (size.Height-1)/2))
	rr.r.line.Resize(fyne.NewSize(size.Width, 1))
}

func (rr *ruleLineRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, rr.r.heightAt(0))
}

func (rr *ruleLineRenderer) Refresh() {
	rr.r.line.FillColor = resolveColor(rr.r.Theme(), theme.ColorNameInputBorder)
	rr.Layout(rr.r.Size())
	canvas.Refresh(rr.r)
}

func (rr *ruleLineRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{rr.r.line}
}

func (rr *ruleLineRenderer) Destroy() {}
