package markdown

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// MonoBlock is lines of monospace text, already wrapped, one colour each:
// a command's output in the chat. It draws a canvas.Text only for the
// lines in its window.
type MonoBlock struct {
	widget.BaseWidget
	Lines  []string
	colors []color.Color
	cell   fyne.Size
	size   float32
	width  float32

	ver uint64
	lineWindow
	shown   kit.DrawnLines
	objects []fyne.CanvasObject
	Marks   Marks
}

// NewMonoBlock is an empty block; Set gives it its lines.
func NewMonoBlock() *MonoBlock {
	b := &MonoBlock{lineWindow: lineWindow{win: kit.Everything}}
	b.ExtendBaseWidget(b)
	return b
}

// Set replaces the lines, each cell high and width wide, in text of size.
func (b *MonoBlock) Set(lines []string, colors []color.Color, cell fyne.Size, size, width float32) {
	b.Lines, b.colors, b.cell, b.size, b.width = lines, colors, cell, size, width
	b.ver++
	b.Draw()
}

func (b *MonoBlock) HeightAt(float32) float32 { return float32(len(b.Lines)) * b.cell.Height }

// SetWindow implements windowed.
func (b *MonoBlock) SetWindow(top, bottom float32) {
	if b.moveTo(top, bottom, b.ver) {
		b.Draw()
	}
}

func (b *MonoBlock) Draw() {
	b.drawnVer = b.ver
	b.objects = b.objects[:0]
	if b.win.Empty() || b.cell.Height <= 0 {
		b.shown.Clear()
		return
	}
	first, last := 0, len(b.Lines)
	if b.win != kit.Everything {
		first = max(int(b.win.Top/b.cell.Height), 0)
		last = min(int(b.win.Bottom/b.cell.Height)+1, len(b.Lines))
	}
	b.shown.Sync(first, max(first, last), b)
	b.objects = b.selectionRects(b.objects, first, max(first, last))
	b.objects = b.shown.AppendTo(b.objects)
}

func (b *MonoBlock) LineSig(i int) uint64 {
	return uint64(kit.NewSigHash().Str(b.Lines[i]).Num(colorBits(b.colors[i])).F32(b.size).F32(b.width))
}

func (b *MonoBlock) LineTop(i int) float32 { return float32(i) * b.cell.Height }

func (b *MonoBlock) BuildLine(i int) []fyne.CanvasObject {
	t := &canvas.Text{Text: b.Lines[i], TextSize: b.size, TextStyle: fyne.TextStyle{Monospace: true}, Color: b.colors[i]}
	t.Move(fyne.NewPos(0, b.LineTop(i)))
	t.Resize(fyne.NewSize(b.width, b.cell.Height))
	return []fyne.CanvasObject{t}
}

func (b *MonoBlock) CreateRenderer() fyne.WidgetRenderer { return &monoBlockRenderer{b: b} }

type monoBlockRenderer struct{ b *MonoBlock }

func (r *monoBlockRenderer) Layout(fyne.Size) {}

func (r *monoBlockRenderer) MinSize() fyne.Size { return fyne.NewSize(0, r.b.HeightAt(0)) }

func (r *monoBlockRenderer) Refresh() {
	r.b.shown.Clear()
	r.b.Draw()
	canvas.Refresh(r.b)
}

func (r *monoBlockRenderer) Objects() []fyne.CanvasObject { return r.b.objects }

func (r *monoBlockRenderer) Destroy() {}
