package kit

import (
	"math"

	"fyne.io/fyne/v2"
)

// DrawnLines keeps the canvas objects of the lines of a text that are in
// its window. Lines are known by index and by a signature of what they
// show: when the window moves or the text grows, a line already drawn
// keeps its objects (and their textures), moved if it moved, and only lines
// that came into view or changed get new ones.
type DrawnLines struct {
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
	// LineSig identifies what line i shows, wherever it sits.
	LineSig(i int) uint64
	// LineTop is where line i starts.
	LineTop(i int) float32
	// BuildLine makes the objects of line i, placed for its top.
	BuildLine(i int) []fyne.CanvasObject
}

// Sync makes the drawn lines exactly [first, last) of src.
func (d *DrawnLines) Sync(first, last int, src lineSource) {
	old := d.lines
	fresh := make([]drawnLine, 0, max(last-first, 0))
	j := 0
	for i := first; i < last; i++ {
		for j < len(old) && old[j].index < i {
			release(old[j].objs)
			j++
		}
		sig, y := src.LineSig(i), src.LineTop(i)
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
		fresh = append(fresh, drawnLine{index: i, sig: sig, y: y, objs: src.BuildLine(i)})
	}
	for ; j < len(old); j++ {
		release(old[j].objs)
	}
	d.lines = fresh
}

// Clear lets go of every drawn line.
func (d *DrawnLines) Clear() {
	for _, l := range d.lines {
		release(l.objs)
	}
	d.lines = nil
}

// AppendTo adds the drawn objects, in line order, to dst.
func (d *DrawnLines) AppendTo(dst []fyne.CanvasObject) []fyne.CanvasObject {
	for _, l := range d.lines {
		dst = append(dst, l.objs...)
	}
	return dst
}

// Count is the number of objects drawn.
func (d *DrawnLines) Count() int {
	n := 0
	for _, l := range d.lines {
		n += len(l.objs)
	}
	return n
}

// sigHash builds a line signature (64-bit FNV-1a).
type sigHash uint64

// NewSigHash starts a signature (the FNV-1a offset basis).
func NewSigHash() sigHash { return 14695981039346656037 }

func (h sigHash) Str(s string) sigHash {
	for i := 0; i < len(s); i++ {
		h ^= sigHash(s[i])
		h *= 1099511628211
	}
	return h.Num(uint64(len(s)))
}

func (h sigHash) Num(v uint64) sigHash {
	for i := 0; i < 8; i++ {
		h ^= sigHash(v & 0xff)
		h *= 1099511628211
		v >>= 8
	}
	return h
}

func (h sigHash) F32(f float32) sigHash { return h.Num(uint64(math.Float32bits(f))) }

func (h sigHash) Flag(b bool) sigHash {
	if b {
		return h.Num(1)
	}
	return h.Num(0)
}
