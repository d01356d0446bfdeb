package markdown

import (
	"image/color"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// MdTable is a GFM table: a bordered grid with a shaded header row.
// Columns take the width their text needs; when that is more than there
// is, the widest columns give up space first and their cells wrap.
type MdTable struct {
	widget.BaseWidget
	// rows[0] is the header.
	rows [][]*TextFlow

	natural      []float32
	naturalStamp kit.LookStamp

	valid    bool
	laidW    float32
	laidH    float32
	stamp    kit.LookStamp
	head     *canvas.Rectangle
	frame    *canvas.Rectangle
	rules    []fyne.CanvasObject // under each row but the first
	colRules []fyne.CanvasObject // between columns
	rowTops  []float32

	win     kit.RowWindow
	objects []fyne.CanvasObject
}

func newMDTable(rows [][]*TextFlow) *MdTable {
	t := &MdTable{rows: rows, win: kit.Everything}
	t.ExtendBaseWidget(t)
	return t
}

func (t *MdTable) columns() int {
	n := 0
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	return n
}

func (t *MdTable) CreateRenderer() fyne.WidgetRenderer {
	return &kit.WidthRenderer{W: t}
}

func (t *MdTable) HeightAt(width float32) float32 {
	t.LayoutAt(width)
	return t.laidH
}

// naturalWidths is each column's unwrapped width, padding included.
func (t *MdTable) naturalWidths(st kit.LookStamp, padX float32) []float32 {
	if t.natural != nil && t.naturalStamp == st {
		return t.natural
	}
	cols := make([]float32, t.columns())
	for _, r := range t.rows {
		for i, c := range r {
			cols[i] = max(cols[i], c.NaturalWidth(naturalWidthEnough)+2*padX)
		}
	}
	t.natural, t.naturalStamp = cols, st
	return cols
}

// fitColumns shares width between columns: narrow columns keep their
// natural width, the rest split what is left evenly (water filling).
func fitColumns(natural []float32, width, minCol float32) []float32 {
	out := make([]float32, len(natural))
	total := float32(0)
	for _, w := range natural {
		total += w
	}
	if width <= 0 || total <= width {
		copy(out, natural)
		return out
	}
	done := make([]bool, len(natural))
	left, open := width, len(natural)
	for changed := true; changed && open > 0; {
		changed = false
		share := left / float32(open)
		for i, w := range natural {
			if !done[i] && w <= share {
				out[i], done[i] = w, true
				left -= w
				open--
				changed = true
			}
		}
	}
	if open > 0 {
		share := max(left/float32(open), minCol)
		for i := range natural {
			if !done[i] {
				out[i] = share
			}
		}
	}
	return out
}

func (t *MdTable) LayoutAt(width float32) {
	th := t.Theme()
	st := kit.LookStampOf(th)
	if t.valid && t.laidW == width && t.stamp == st {
		return
	}
	padX := th.Size(theme.SizeNameInnerPadding)
	padY := th.Size(theme.SizeNamePadding) + 2
	border := kit.ResolveColor(th, theme.ColorNameInputBorder)
	widths := fitColumns(t.naturalWidths(st, padX), width, 3*padX)
	tableW := float32(0)
	for _, w := range widths {
		tableW += w
	}

	// The frame is drawn last so its stroke stays on top of the header
	// shading and the rules.
	t.frame = canvas.NewRectangle(color.Transparent)
	t.frame.StrokeColor, t.frame.StrokeWidth = border, 1
	t.frame.CornerRadius = th.Size(theme.SizeNameInputRadius)
	t.head = canvas.NewRectangle(kit.ResolveColor(th, theme.ColorNameInputBackground))
	t.head.TopLeftCornerRadius = t.frame.CornerRadius
	t.head.TopRightCornerRadius = t.frame.CornerRadius
	t.rules = t.rules[:0]
	t.rowTops = t.rowTops[:0]

	y := float32(0)
	for ri, r := range t.rows {
		rowH := float32(0)
		for ci, c := range r {
			rowH = max(rowH, c.HeightAt(widths[ci]-2*padX))
		}
		rowH += 2 * padY
		x := float32(0)
		for ci, c := range r {
			c.Move(fyne.NewPos(x+padX, y+padY))
			c.Resize(fyne.NewSize(widths[ci]-2*padX, rowH-2*padY))
			x += widths[ci]
		}
		if ri == 0 {
			t.head.Resize(fyne.NewSize(tableW, rowH))
		} else {
			t.rules = append(t.rules, tableRule(border, 0, y, tableW, 1))
		}
		t.rowTops = append(t.rowTops, y)
		y += rowH
	}
	t.colRules = t.colRules[:0]
	x := float32(0)
	for _, w := range widths[:max(len(widths)-1, 0)] {
		x += w
		t.colRules = append(t.colRules, tableRule(border, x, 0, 1, y))
	}
	t.frame.Resize(fyne.NewSize(tableW-1, y-1))
	t.laidH = y
	t.laidW, t.stamp, t.valid = width, st, true
}

// SetWindow implements windowed.
func (t *MdTable) SetWindow(top, bottom float32) {
	t.win = kit.RowWindow{Top: top, Bottom: bottom}
	t.Draw()
}

// Draw keeps the rows in the window: their rules and cells, each cell
// windowed in turn. The shading, frame and column rules are one object
// each, whatever the table's length.
func (t *MdTable) Draw() {
	prev := t.objects
	t.objects = nil
	if t.valid && !t.win.Empty() {
		t.objects = append(t.objects, t.head)
		first := sort.Search(len(t.rowTops), func(i int) bool {
			return i+1 >= len(t.rowTops) || t.rowTops[i+1] > t.win.Top
		})
		var cells []fyne.CanvasObject
		for ri := first; ri < len(t.rows) && t.rowTops[ri] < t.win.Bottom; ri++ {
			if ri > 0 {
				t.objects = append(t.objects, t.rules[ri-1])
			}
			for _, c := range t.rows[ri] {
				if kit.WindowChild(c, t.win) {
					cells = append(cells, c)
				}
			}
		}
		for _, c := range t.colRules {
			t.objects = append(t.objects, c)
		}
		t.objects = append(append(t.objects, cells...), t.frame)
	}
	kit.LetGoOfLeavers(prev, t.objects)
}

// naturalWidthEnough is as wide as a column's natural width is measured:
// wider ones are squeezed to the table's width anyway, and a cell of
// megabytes need not be measured to its end.
const naturalWidthEnough = 1 << 14

func tableRule(col color.Color, x, y, w, h float32) *canvas.Rectangle {
	r := canvas.NewRectangle(col)
	r.Move(fyne.NewPos(x, y))
	r.Resize(fyne.NewSize(w, h))
	return r
}

func (t *MdTable) Invalidate() { t.valid = false }

func (t *MdTable) DrawnObjects() []fyne.CanvasObject { return t.objects }

var _ kit.Windowed = (*MdTable)(nil)
