package kit

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

// Windowed is drawn content that can leave out what is outside a window.
type Windowed interface {
	// SetWindow says which rows, in the object's own coordinates, are on
	// screen or close to it. An empty window (top >= bottom) means none:
	// the object lets go of everything it drew.
	SetWindow(top, bottom float32)
}

// RowWindow is a window of rows; the zero value is empty.
type RowWindow struct {
	Top, Bottom float32
}

// Everything is the window of an object nobody windows: all of it.
var Everything = RowWindow{Top: -math.MaxFloat32, Bottom: math.MaxFloat32}

// Empty says no row can be in the window.
func (w RowWindow) Empty() bool { return w.Top >= w.Bottom }

// Reaches says whether rows [top, top+h) meet the window.
func (w RowWindow) Reaches(top, h float32) bool {
	return !w.Empty() && top < w.Bottom && top+max(h, 1) > w.Top
}

// Shifted is the window as seen by a child placed y further down.
func (w RowWindow) Shifted(y float32) RowWindow {
	if w.Empty() || w == Everything {
		return w
	}
	return RowWindow{w.Top - y, w.Bottom - y}
}

// WindowChild passes the window on to a child object and reports whether
// the child reaches it; a child out of the window is given an empty one.
func WindowChild(o fyne.CanvasObject, w RowWindow) bool {
	y, h := o.Position().Y, o.Size().Height
	in := o.Visible() && w.Reaches(y, h)
	if c, ok := o.(Windowed); ok {
		if in {
			cw := w.Shifted(y)
			c.SetWindow(cw.Top, cw.Bottom)
		} else {
			c.SetWindow(0, 0)
		}
	}
	return in
}

// WindowStack is the children of a container laid out top to bottom
// without overlap, keeping in the tree only those in its window. Finding
// them is a binary search, so a stack of thousands of blocks costs what
// its visible part does.
type WindowStack struct {
	win RowWindow
	// all are the children in order of their top edge.
	all []fyne.CanvasObject
	// Shown are the children in the window; first is the index of
	// shown[0] in all.
	Shown []fyne.CanvasObject
	first int
}

// NewWindowStack is an empty stack that shows all of its children until
// it is given a window.
func NewWindowStack() WindowStack { return WindowStack{win: Everything} }

// Set replaces the children; apply must follow once they are placed.
func (s *WindowStack) Set(children []fyne.CanvasObject) {
	s.all = children
}

// SetWindow moves the window and applies it.
func (s *WindowStack) SetWindow(top, bottom float32) {
	s.win = RowWindow{top, bottom}
	s.Apply()
}

// Apply picks the children in the window, after a move of the window or
// of the children. Children that leave it are told to let go.
func (s *WindowStack) Apply() {
	prev := s.Shown
	s.Shown = nil
	s.first = 0
	if !s.win.Empty() {
		// Hidden children keep stale places, which would mislead a binary
		// search; few children are scanned.
		if s.win != Everything && len(s.all) > 32 {
			s.first = sort.Search(len(s.all), func(i int) bool {
				o := s.all[i]
				return o.Position().Y+max(o.Size().Height, 1) > s.win.Top
			})
		}
		for _, o := range s.all[s.first:] {
			if o.Position().Y >= s.win.Bottom {
				break
			}
			if WindowChild(o, s.win) {
				s.Shown = append(s.Shown, o)
			}
		}
	}
	LetGoOfLeavers(prev, s.Shown)
}

// LetGoOfLeavers gives an empty window to the objects of before that are
// not in after: they are no longer painted, but would keep their objects
// and textures.
func LetGoOfLeavers(before, after []fyne.CanvasObject) {
	if len(before) == 0 {
		return
	}
	kept := make(map[fyne.CanvasObject]bool, len(after))
	for _, o := range after {
		kept[o] = true
	}
	for _, o := range before {
		if c, ok := o.(Windowed); ok && !kept[o] {
			c.SetWindow(0, 0)
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

// WindowedParts is embedded by the chat's views to window their parts: a
// handful of children each, looked at one by one.
type WindowedParts struct {
	All   func() []fyne.CanvasObject
	win   RowWindow
	shown []fyne.CanvasObject
	set   bool
}

// NewWindowedParts windows the parts all returns; all of them show until
// it is given a window.
func NewWindowedParts(all func() []fyne.CanvasObject) WindowedParts {
	return WindowedParts{All: all, win: Everything}
}

// SetWindow implements windowed.
func (p *WindowedParts) SetWindow(top, bottom float32) {
	p.win = RowWindow{top, bottom}
	p.Apply()
}

// Apply picks the parts in the window; the view calls it after placing
// them.
func (p *WindowedParts) Apply() {
	prev := p.shown
	p.shown = nil
	for _, o := range p.All() {
		if WindowChild(o, p.win) {
			p.shown = append(p.shown, o)
		}
	}
	p.set = true
	LetGoOfLeavers(prev, p.shown)
}

// visible is what to draw.
func (p *WindowedParts) visible() []fyne.CanvasObject {
	if !p.set {
		p.Apply()
	}
	return p.shown
}

// WindowParts implements PartsWindowing for a view that embeds p.
func (p *WindowedParts) WindowParts() *WindowedParts { return p }

// PartsWindowing is a selfLaying view that windows its parts.
type PartsWindowing interface {
	WindowParts() *WindowedParts
}

// RequestFrame asks for a repaint of the canvas o is on without freeing
// any texture. canvas.Refresh(o) would free the textures of everything
// under o, which for a reply or a block is every line on screen, drawn
// again on the next frame; lines that did not change keep their objects
// here, and new objects are drawn anyway. Fyne's GL canvas can be marked
// dirty; other canvases (the test driver's) get a refresh of o.
func RequestFrame(o fyne.CanvasObject) {
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

// SelectionKids lets selection walk the parts of a windowed view.
func (p *WindowedParts) SelectionKids() []fyne.CanvasObject { return p.All() }
