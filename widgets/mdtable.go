package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// mdTable is a GFM table: a bordered grid with a shaded header row.
// Columns take the width their text needs; when that is more than there
// is, the widest columns give up space first and their cells wrap.
type mdTable struct {
	widget.BaseWidget
	// rows[0] is the header.
	rows [][]*textFlow

	natural      []float32
	naturalStamp lookStamp

	valid   bool
	laidW   float32
	laidH   float32
	stamp   lookStamp
	objects []fyne.CanvasObject
}

func newMDTable(rows [][]*textFlow) *mdTable {
	t := &mdTable{rows: rows}
	t.ExtendBaseWidget(t)
	return t
}

func (t *mdTable) columns() int {
	n := 0
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	return n
}

func (t *mdTable) CreateRenderer() fyne.WidgetRenderer {
	return &widthRenderer{w: t}
}

func (t *mdTable) heightAt(width float32) float32 {
	t.layoutAt(width)
	return t.laidH
}

// naturalWidths is each column's unwrapped width, padding included.
func (t *mdTable) naturalWidths(st lookStamp, padX float32) []float32 {
	if t.natural != nil && t.naturalStamp == st {
		return t.natural
	}
	cols := make([]float32, t.columns())
	for _, r := range t.rows {
		for i, c := range r {
			cols[i] = max(cols[i], c.naturalWidth()+2*padX)
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

func (t *mdTable) layoutAt(width float32) {
	th := t.Theme()
	st := lookStampOf(th)
	if t.valid && t.laidW == width && t.stamp == st {
		return
	}
	padX := th.Size(theme.SizeNameInnerPadding)
	padY := th.Size(theme.SizeNamePadding) + 2
	border := resolveColor(th, theme.ColorNameInputBorder)
	widths := fitColumns(t.naturalWidths(st, padX), width, 3*padX)
	tableW := float32(0)
	for _, w := range widths {
		tableW += w
	}

	// The frame is drawn last so its stroke stays on top of the header
	// shading and the rules.
	frame := canvas.NewRectangle(color.Transparent)
	frame.StrokeColor, frame.StrokeWidth = border, 1
	frame.CornerRadius = th.Size(theme.SizeNameInputRadius)
	head := canvas.NewRectangle(resolveColor(th, theme.ColorNameInputBackground))
	head.TopLeftCornerRadius = frame.CornerRadius
	head.TopRightCornerRadius = frame.CornerRadius
	objs := []fyne.CanvasObject{head}
	var cells []fyne.CanvasObject

	y := float32(0)
	for ri, r := range t.rows {
		rowH := float32(0)
		for ci, c := range r {
			rowH = max(rowH, c.heightAt(widths[ci]-2*padX))
		}
		rowH += 2 * padY
		x := float32(0)
		for ci, c := range r {
			c.Move(fyne.NewPos(x+padX, y+padY))
			c.Resize(fyne.NewSize(widths[ci]-2*padX, rowH-2*padY))
			cells = append(cells, c)
			x += widths[ci]
		}
		if ri == 0 {
			head.Resize(fyne.NewSize(tableW, rowH))
		} else {
			objs = append(objs, tableRule(border, 0, y, tableW, 1))
		}
		y += rowH
	}
	x := float32(0)
	for _, w := range widths[:max(len(widths)-1, 0)] {
		x += w
		objs = append(objs, tableRule(border, x, 0, 1, y))
	}
	frame.Resize(fyne.NewSize(tableW-1, y-1))

	t.objects, t.laidH = append(append(objs, cells...), frame), y
	t.laidW, t.stamp, t.valid = width, st, true
}

func tableRule(col color.Color, x, y, w, h float32) *canvas.Rectangle {
	r := canvas.NewRectangle(col)
	r.Move(fyne.NewPos(x, y))
	r.Resize(fyne.NewSize(w, h))
	return r
}

func (t *mdTable) invalidate() { t.valid = false }

func (t *mdTable) drawn() []fyne.CanvasObject { return t.objects }
