package widgets

import (
	"math"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// Fyne's GL painter walks and paints every object in the canvas tree on
// every frame, clipping with a scissor rectangle but culling nothing, and
// each canvas.Text keeps a texture of its own. A long reply laid out whole
// would paint, and hold textures for, thousands of lines off screen.
//
// So the chat tells what it draws which of its rows are on screen: a
// window, in the object's own coordinates, passed down from the chat view
// through each container to the text. Containers keep in the tree only the
// children that reach the window; text keeps canvas objects only for the
// lines inside it and holds the rest as layout numbers. The chat passes
// the window down after every change of layout or scroll offset.

// windowed is drawn content that can leave out what is outside a window.
type windowed interface {
	// setWindow says which rows, in the object's own coordinates, are on
	// screen or close to it. An empty window (top >= bottom) means none:
	// the object lets go of everything it drew.
	setWindow(top, bottom float32)
}

// rowWindow is a window of rows; the zero value is empty.
type rowWindow struct {
	top, bottom float32
}

// everything is the window of an object nobody windows: all of it.
var everything = rowWindow{top: -math.MaxFloat32, bottom: math.MaxFloat32}

func (w rowWindow) empty() bool { return w.top >= w.bottom }

// reaches says whether rows [top, top+h) meet the window.
func (w rowWindow) reaches(top, h float32) bool {
	return !w.empty() && top < w.bottom && top+max(h, 1) > w.top
}

// shifted is the window as seen by a child placed y further down.
func (w rowWindow) shifted(y float32) rowWindow {
	if w.empty() || w == everything {
		return w
	}
	return rowWindow{w.top - y, w.bottom - y}
}

// windowChild passes the window on to a child object and reports whether
// the child reaches it; a child out of the window is given an empty one.
func windowChild(o fyne.CanvasObject, w rowWindow) bool {
	y, h := o.Position().Y, o.Size().Height
	in := o.Visible() && w.reaches(y, h)
	if c, ok := o.(windowed); ok {
		if in {
			cw := w.shifted(y)
			c.setWindow(cw.top, cw.bottom)
		} else {
			c.setWindow(0, 0)
		}
	}
	return in
}

// windowStack is the children of a container laid out top to bottom
// without overlap, keeping in the tree only those in its window. Finding
// them is a binary search, so a stack of thousands of blocks costs what
// its visible part does.
type windowStack struct {
	win rowWindow
	// all are the children in order of their top edge.
	all []fyne.CanvasObject
	// shown are the children in the window; first is the index of
	// shown[0] in all.
	shown []fyne.CanvasObject
	first int
}

func newWindowStack() windowStack { return windowStack{win: everything} }

// set replaces the children; apply must follow once they are placed.
func (s *windowStack) set(children []fyne.CanvasObject) {
	s.all = children
}

// setWindow moves the window and applies it.
func (s *windowStack) setWindow(top, bottom float32) {
	s.win = rowWindow{top, bottom}
	s.apply()
}

// apply picks the children in the window, after a move of the window or
// of the children. Children that leave it are told to let go.
func (s *windowStack) apply() {
	prev := s.shown
	s.shown = nil
	s.first = 0
	if !s.win.empty() {
		// Hidden children keep stale places, which would mislead a binary
		// search; few children are scanned.
		if s.win != everything && len(s.all) > 32 {
			s.first = sort.Search(len(s.all), func(i int) bool {
				o := s.all[i]
				return o.Position().Y+max(o.Size().Height, 1) > s.win.top
			})
		}
		for _, o := range s.all[s.first:] {
			if o.Position().Y >= s.win.bottom {
				break
			}
			if windowChild(o, s.win) {
				s.shown = append(s.shown, o)
			}
		}
	}
	letGoOfLeavers(prev, s.shown)
}

// letGoOfLeavers gives an empty window to the objects of before that are
// not in after: they are no longer painted, but would keep their objects
// and textures.
func letGoOfLeavers(before, after []fyne.CanvasObject) {
	if len(before) == 0 {
		return
	}
	kept := make(map[fyne.CanvasObject]bool, len(after))
	for _, o := range after {
		kept[o] = true
	}
	for _, o := range before {
		if c, ok := o.(windowed); ok && !kept[o] {
			c.setWindow(0, 0)
		}
	}
}

// release frees the textures of objects taken out of the tree. They would
// otherwise live until Fyne's cache expires them, a minute after their
// last paint, which for a fast scroll through a long reply is thousands.
// A refresh makes the driver free an object's textures on the next frame.
func release(objs []fyne.CanvasObject) {
	for _, o := range objs {
		if o != nil {
			canvas.Refresh(o)
		}
	}
}

// windowedParts is embedded by the chat's views to window their parts: a
// handful of children each, looked at one by one.
type windowedParts struct {
	all   func() []fyne.CanvasObject
	win   rowWindow
	shown []fyne.CanvasObject
	set   bool
}

func newWindowedParts(all func() []fyne.CanvasObject) windowedParts {
	return windowedParts{all: all, win: everything}
}

// setWindow implements windowed.
func (p *windowedParts) setWindow(top, bottom float32) {
	p.win = rowWindow{top, bottom}
	p.apply()
}

// apply picks the parts in the window; the view calls it after placing
// them.
func (p *windowedParts) apply() {
	prev := p.shown
	p.shown = nil
	for _, o := range p.all() {
		if windowChild(o, p.win) {
			p.shown = append(p.shown, o)
		}
	}
	p.set = true
	letGoOfLeavers(prev, p.shown)
}

// visible is what to draw.
func (p *windowedParts) visible() []fyne.CanvasObject {
	if !p.set {
		p.apply()
	}
	return p.shown
}

func (p *windowedParts) windowParts() *windowedParts { return p }

// partsWindowing is a selfLaying view that windows its parts.
type partsWindowing interface {
	windowParts() *windowedParts
}

// requestFrame asks for a repaint of the canvas o is on without freeing
// any texture. canvas.Refresh(o) would free the textures of everything
// under o, which for a reply or a block is every line on screen, drawn
// again on the next frame; lines that did not change keep their objects
// here, and new objects are drawn anyway. Fyne's GL canvas can be marked
// dirty; other canvases (the test driver's) get a refresh of o.
func requestFrame(o fyne.CanvasObject) {
	a := fyne.CurrentApp()
	if a == nil {
		return
	}
	c := a.Driver().CanvasForObject(o)
	if c == nil {
		return
	}
	if d, ok := c.(interface{ SetDirty() }); ok {
		d.SetDirty()
		return
	}
	c.Refresh(o)
}
