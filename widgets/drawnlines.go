package widgets

import (
	"math"

	"fyne.io/fyne/v2"
)

// drawnLines keeps the canvas objects of the lines of a text that are in
// its window. Lines are known by index and by a signature of what they
// show: when the window moves or the text grows, a line already drawn
// keeps its objects (and their textures), moved if it moved, and only lines
// that came into view or changed get new ones.
type drawnLines struct {
	lines []drawnLine
	// built counts lines given new objects, for tests.
	built int
}

// linesBuilt counts the lines of text given new objects, by every view:
// each costs Fyne about a millisecond and a half of the UI thread when it
// is first painted (shaping, then rasterising every glyph), which is what
// a redraw of new text costs. Only the UI goroutine touches it.
var linesBuilt uint64

// LinesDrawn is how many lines of text the chat has drawn anew so far,
// for the window to pace its redraws by.
func LinesDrawn() uint64 { return linesBuilt }

type drawnLine struct {
	index int
	sig   uint64
	y     float32
	objs  []fyne.CanvasObject
}

// lineSource is a laid-out text as drawnLines sees it.
type lineSource interface {
	// lineSig identifies what line i shows, wherever it sits.
	lineSig(i int) uint64
	// lineTop is where line i starts.
	lineTop(i int) float32
	// buildLine makes the objects of line i, placed for its top.
	buildLine(i int) []fyne.CanvasObject
}

// sync makes the drawn lines exactly [first, last) of src.
func (d *drawnLines) sync(first, last int, src lineSource) {
	old := d.lines
	fresh := make([]drawnLine, 0, max(last-first, 0))
	j := 0
	for i := first; i < last; i++ {
		for j < len(old) && old[j].index < i {
			release(old[j].objs)
			j++
		}
		sig, y := src.lineSig(i), src.lineTop(i)
		if j < len(old) && old[j].index == i {
			l := old[j]
			j++
			if l.sig == sig {
				if dy := y - l.y; dy != 0 {
					for _, o := range l.objs {
						o.Move(o.Position().AddXY(0, dy))
					}
					l.y = y
				}
				fresh = append(fresh, l)
				continue
			}
			release(l.objs)
		}
		d.built++
		linesBuilt++
		fresh = append(fresh, drawnLine{index: i, sig: sig, y: y, objs: src.buildLine(i)})
	}
	for ; j < len(old); j++ {
		release(old[j].objs)
	}
	d.lines = fresh
}

// clear lets go of every drawn line.
func (d *drawnLines) clear() {
	for _, l := range d.lines {
		release(l.objs)
	}
	d.lines = nil
}

// appendTo adds the drawn objects, in line order, to dst.
func (d *drawnLines) appendTo(dst []fyne.CanvasObject) []fyne.CanvasObject {
	for _, l := range d.lines {
		dst = append(dst, l.objs...)
	}
	return dst
}

// count is the number of objects drawn.
func (d *drawnLines) count() int {
	n := 0
	for _, l := range d.lines {
		n += len(l.objs)
	}
	return n
}

// sigHash builds a line signature (64-bit FNV-1a).
type sigHash uint64

func newSigHash() sigHash { return 14695981039346656037 }

func (h sigHash) str(s string) sigHash {
	for i := 0; i < len(s); i++ {
		h ^= sigHash(s[i])
		h *= 1099511628211
	}
	return h.num(uint64(len(s)))
}

func (h sigHash) num(v uint64) sigHash {
	for i := 0; i < 8; i++ {
		h ^= sigHash(v & 0xff)
		h *= 1099511628211
		v >>= 8
	}
	return h
}

func (h sigHash) f32(f float32) sigHash { return h.num(uint64(math.Float32bits(f))) }

func (h sigHash) flag(b bool) sigHash {
	if b {
		return h.num(1)
	}
	return h.num(0)
}
