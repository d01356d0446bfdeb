package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// MdList is a bullet, numbered or task list: each item's marker sits in a
// column to the left of the item's blocks.
type MdList struct {
	widget.BaseWidget
	markers []string
	bodies  []*FlowStack
	// loose lists (items separated by blank lines) get paragraph spacing.
	loose bool
	// ordered markers are numbers. Others are symbols, drawn monospace
	// because the bundled monospace font has ◦ ▪ ☐ ☑ and the body font
	// does not, so they look the same on every machine.
	ordered bool

	texts []*canvas.Text

	win   kit.RowWindow
	shown []fyne.CanvasObject
}

func newMDList(markers []string, bodies []*FlowStack, loose, ordered bool) *MdList {
	l := &MdList{markers: markers, bodies: bodies, loose: loose, ordered: ordered, win: kit.Everything}
	l.ExtendBaseWidget(l)
	return l
}

func (l *MdList) itemGap(th fyne.Theme) float32 {
	if l.loose {
		return th.Size(theme.SizeNameInnerPadding)
	}
	return th.Size(theme.SizeNameLineSpacing)
}

func (l *MdList) markerStyle() fyne.TextStyle {
	return fyne.TextStyle{Monospace: !l.ordered}
}

// indent is the width of the marker column.
func (l *MdList) indent(th fyne.Theme) float32 {
	size := th.Size(theme.SizeNameText)
	w := size * 1.2
	for _, m := range l.markers {
		w = max(w, fyne.MeasureText(m, size, l.markerStyle()).Width)
	}
	return w + th.Size(theme.SizeNameInnerPadding)
}

func (l *MdList) HeightAt(width float32) float32 {
	th := l.Theme()
	inner := width - l.indent(th)
	h := float32(0)
	for i, b := range l.bodies {
		if i > 0 {
			h += l.itemGap(th)
		}
		h += b.HeightAt(inner)
	}
	return h
}

func (l *MdList) CreateRenderer() fyne.WidgetRenderer {
	r := &mdListRenderer{l: l}
	r.Refresh()
	return r
}

type mdListRenderer struct {
	l *MdList
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
		h := b.HeightAt(size.Width - indent)
		m := l.texts[i]
		ms := m.MinSize()
		// Numbers line up on their right edge, like a word processor's.
		m.Move(fyne.NewPos(indent-pad-ms.Width, y+drop))
		m.Resize(ms)
		b.Move(fyne.NewPos(indent, y))
		b.Resize(fyne.NewSize(size.Width-indent, h))
		y += h
	}
	l.applyWindow()
}

// SetWindow implements windowed.
func (l *MdList) SetWindow(top, bottom float32) {
	l.win = kit.RowWindow{Top: top, Bottom: bottom}
	l.applyWindow()
}

// applyWindow keeps the items in the window, markers first as they were
// always drawn, and windows each item's blocks.
func (l *MdList) applyWindow() {
	prev := l.shown
	l.shown = nil
	var bodies []fyne.CanvasObject
	for i, b := range l.bodies {
		if i >= len(l.texts) {
			break
		}
		if kit.WindowChild(b, l.win) {
			l.shown = append(l.shown, l.texts[i])
			bodies = append(bodies, b)
		}
	}
	l.shown = append(l.shown, bodies...)
	kit.LetGoOfLeavers(prev, l.shown)
}

func (r *mdListRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.l.HeightAt(r.l.Size().Width))
}

func (r *mdListRenderer) Refresh() {
	th := r.l.Theme()
	r.l.texts = r.l.texts[:0]
	for _, m := range r.l.markers {
		r.l.texts = append(r.l.texts, &canvas.Text{Text: m, TextSize: th.Size(theme.SizeNameText),
			Color: kit.ResolveColor(th, theme.ColorNameForeground), TextStyle: r.l.markerStyle()})
	}
	r.Layout(r.l.Size())
	canvas.Refresh(r.l)
}

func (r *mdListRenderer) Objects() []fyne.CanvasObject {
	return r.l.shown
}

func (r *mdListRenderer) Destroy() {}
