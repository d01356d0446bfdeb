package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// monoBlock is lines of monospace text, already wrapped, one colour each:
// a command's output in the chat. It draws a canvas.Text only for the
// lines in its window.
type monoBlock struct {
	widget.BaseWidget
	lines  []string
	colors []color.Color
	cell   fyne.Size
	size   float32
	width  float32

	ver uint64
	lineWindow
	shown   drawnLines
	objects []fyne.CanvasObject
	marks   marks
}

func newMonoBlock() *monoBlock {
	b := &monoBlock{lineWindow: lineWindow{win: everything}}
	b.ExtendBaseWidget(b)
	return b
}

// set replaces the lines, each cell high and width wide, in text of size.
func (b *monoBlock) set(lines []string, colors []color.Color, cell fyne.Size, size, width float32) {
	b.lines, b.colors, b.cell, b.size, b.width = lines, colors, cell, size, width
	b.ver++
	b.draw()
}

func (b *monoBlock) heightAt(float32) float32 { return float32(len(b.lines)) * b.cell.Height }

// setWindow implements windowed.
func (b *monoBlock) setWindow(top, bottom float32) {
	if b.moveTo(top, bottom, b.ver) {
		b.draw()
	}
}

func (b *monoBlock) draw() {
	b.drawnVer = b.ver
	b.objects = b.objects[:0]
	if b.win.empty() || b.cell.Height <= 0 {
		b.shown.clear()
		return
	}
	first, last := 0, len(b.lines)
	if b.win != everything {
		first = max(int(b.win.top/b.cell.Height), 0)
		last = min(int(b.win.bottom/b.cell.Height)+1, len(b.lines))
	}
	b.shown.sync(first, max(first, last), b)
	b.objects = b.selectionRects(b.objects, first, max(first, last))
	b.objects = b.shown.appendTo(b.objects)
}

func (b *monoBlock) lineSig(i int) uint64 {
	return uint64(newSigHash().str(b.lines[i]).num(colorBits(b.colors[i])).f32(b.size).f32(b.width))
}

func (b *monoBlock) lineTop(i int) float32 { return float32(i) * b.cell.Height }

func (b *monoBlock) buildLine(i int) []fyne.CanvasObject {
	t := &canvas.Text{Text: b.lines[i], TextSize: b.size, TextStyle: fyne.TextStyle{Monospace: true}, Color: b.colors[i]}
	t.Move(fyne.NewPos(0, b.lineTop(i)))
	t.Resize(fyne.NewSize(b.width, b.cell.Height))
	return []fyne.CanvasObject{t}
}

func (b *monoBlock) CreateRenderer() fyne.WidgetRenderer { return &monoBlockRenderer{b: b} }

type monoBlockRenderer struct{ b *monoBlock }

func (r *monoBlockRenderer) Layout(fyne.Size) {}

func (r *monoBlockRenderer) MinSize() fyne.Size { return fyne.NewSize(0, r.b.heightAt(0)) }

func (r *monoBlockRenderer) Refresh() {
	r.b.shown.clear()
	r.b.draw()
	canvas.Refresh(r.b)
}

func (r *monoBlockRenderer) Objects() []fyne.CanvasObject { return r.b.objects }

func (r *monoBlockRenderer) Destroy() {}
