package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// inlineSpan is a run of text that looks the same throughout.
type inlineSpan struct {
	text  string
	style fyne.TextStyle
	// size is empty for body text.
	size fyne.ThemeSizeName
	// color is empty for the foreground colour.
	color  fyne.ThemeColorName
	strike bool
	// code is inline code: monospace on a tinted background.
	code bool
	// link is a destination opened when the text is tapped.
	link string
}

// textFlow draws styled spans with word wrapping.
//
// Fyne's RichText measures every candidate line break by shaping the whole
// remaining paragraph, has no strikethrough and keeps links unbreakable;
// this flow measures each word once and emits one canvas.Text per run of
// a line, so wrapping a streamed paragraph stays cheap.
type textFlow struct {
	widget.BaseWidget
	spans []inlineSpan
	align fyne.TextAlign
	links *linkOpener

	valid   bool
	laidW   float32
	laidH   float32
	stamp   lookStamp
	objects []fyne.CanvasObject
}

func newTextFlow(spans []inlineSpan, links *linkOpener) *textFlow {
	f := &textFlow{spans: spans, links: links}
	f.ExtendBaseWidget(f)
	return f
}

// newPlainFlow is a flow of one unstyled span, for text that is never markup.
func newPlainFlow(text string, style fyne.TextStyle, size fyne.ThemeSizeName, col fyne.ThemeColorName) *textFlow {
	return newTextFlow([]inlineSpan{{text: text, style: style, size: size, color: col}}, nil)
}

// setSpans replaces the text; the caller refreshes when it is on screen.
func (f *textFlow) setSpans(spans []inlineSpan) {
	f.spans = spans
	f.valid = false
}

func (f *textFlow) CreateRenderer() fyne.WidgetRenderer {
	return &textFlowRenderer{f: f}
}

func (f *textFlow) heightAt(width float32) float32 {
	f.layoutAt(width)
	return f.laidH
}

// naturalWidth is the width the text needs to fit without wrapping.
func (f *textFlow) naturalWidth() float32 {
	b := newFlowBuilder(f.Theme(), 0, f.align, nil, true)
	for i := range f.spans {
		b.add(&f.spans[i])
	}
	b.finish()
	return b.widest
}

func (f *textFlow) layoutAt(width float32) {
	th := f.Theme()
	st := lookStampOf(th)
	if f.valid && f.laidW == width && f.stamp == st {
		return
	}
	b := newFlowBuilder(th, width, f.align, f.links, false)
	for i := range f.spans {
		b.add(&f.spans[i])
	}
	f.objects, f.laidH = b.finish()
	f.laidW, f.stamp, f.valid = width, st, true
}

type textFlowRenderer struct {
	f *textFlow
}

func (r *textFlowRenderer) Layout(size fyne.Size) {
	r.f.layoutAt(size.Width)
}

func (r *textFlowRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.f.heightAt(r.f.Size().Width))
}

func (r *textFlowRenderer) Refresh() {
	r.f.valid = false
	if w := r.f.Size().Width; w > 0 { // else laid out when given a size
		r.f.layoutAt(w)
		canvas.Refresh(r.f)
	}
}

func (r *textFlowRenderer) Objects() []fyne.CanvasObject {
	return r.f.objects
}

func (r *textFlowRenderer) Destroy() {}
