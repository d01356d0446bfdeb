package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

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

func (r *ruleLine) HeightAt(float32) float32 {
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
	return fyne.NewSize(0, rr.r.HeightAt(0))
}

func (rr *ruleLineRenderer) Refresh() {
	rr.r.line.FillColor = kit.ResolveColor(rr.r.Theme(), theme.ColorNameInputBorder)
	rr.Layout(rr.r.Size())
	canvas.Refresh(rr.r)
}

func (rr *ruleLineRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{rr.r.line}
}

func (rr *ruleLineRenderer) Destroy() {}
