package chat

import "fyne.io/fyne/v2"

// Why the transcript's scroll has a renderer of its own.
//
// Place lays the scroll out itself whenever the transcript grows: it sizes
// the content and refreshes the scroll, which places the bars. At the next
// paint Fyne sees that the content's minimum size changed since the last
// paint and lays the scroll out again (Canvas.EnsureMinSize). Nothing moves
// then, but Fyne 2.7.1's scroll layout always ends with a refresh of its
// bar area (internal/widget/scroller.go, updatePosition), which marks the
// canvas dirty: the next tick repaints the whole window once more, frame
// for frame the same. While a reply streams that doubled the repaints.

// quietScrollRenderer is the scroll's own renderer, skipping a layout that
// would place everything where the last layout or refresh already put it.
type quietScrollRenderer struct {
	fyne.WidgetRenderer
	s    *chatScroll
	laid scrollPlacing
	ok   bool // laid holds a placing
}

// scrollPlacing is what a layout of the scroll depends on.
type scrollPlacing struct {
	size, content fyne.Size
	offset        fyne.Position
}

func (r *quietScrollRenderer) placing(size fyne.Size) scrollPlacing {
	return scrollPlacing{size: size, content: r.s.Content.Size(), offset: r.s.Offset}
}

// Layout lays the scroll out unless it is placed as it would be: the same
// size, offset and content size, and the content as large as the layout
// would make it.
func (r *quietScrollRenderer) Layout(size fyne.Size) {
	c := r.s.Content
	if r.ok && r.laid == r.placing(size) && c.Size() == c.MinSize().Max(size) {
		return
	}
	r.WidgetRenderer.Layout(size)
	r.laid, r.ok = r.placing(size), true
}

// Refresh places the bars again (the wrapped renderer lays out when it
// must), so what it leaves is a layout done.
func (r *quietScrollRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.laid, r.ok = r.placing(r.s.Size()), true
}

func (s *chatScroll) CreateRenderer() fyne.WidgetRenderer {
	return &quietScrollRenderer{WidgetRenderer: s.Scroll.CreateRenderer(), s: s}
}
