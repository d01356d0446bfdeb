package widgets

import (
	"slices"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// cardList is the virtualized column of tool cards. widget.List keys row
// heights by index, and a newest-first list shifts every index whenever a
// card arrives; here heights live with the cards and only visible cards
// have views.
type cardList struct {
	side    *ToolSidebar
	scroll  *syncScroll
	content *cardListContent
	reveal  *cardState // to scroll to once the list has a size
	pass    uint64     // counts place calls; cards visible in this one carry it

	rows []*cardState
	tops []float32 // tops[i] is row i's y; tops[len(rows)] the total height
	// width is the width the heights were measured for: an open card's
	// command wraps to it.
	width float32
	views map[*cardState]*toolCardView
	spare []*toolCardView
	objs  []fyne.CanvasObject
}

func newCardList(side *ToolSidebar) *cardList {
	l := &cardList{side: side, views: map[*cardState]*toolCardView{}}
	l.content = &cardListContent{l: l}
	l.content.ExtendBaseWidget(l.content)
	l.scroll = newSyncScroll(l.content, container.ScrollVerticalOnly, l.place)
	return l
}

// setRows takes the cards in display order, keeping the first visible card
// where it was on screen unless the list is scrolled to the very top, where
// new cards should appear. When neither the order nor any height changed,
// only the visible cards that changed are redrawn.
func (l *cardList) setRows(rows []*cardState, m cardMetrics) {
	var anchor *cardState
	var anchorY float32
	off := l.scroll.Offset.Y
	if off > 0 {
		if i := l.firstVisible(off); i < len(l.rows) {
			anchor, anchorY = l.rows[i], l.tops[i]
		}
	}
	same := slices.Equal(l.rows, rows)
	if !same {
		l.rows = append(l.rows[:0], rows...)
	}
	if !l.measure(m) && same {
		for st, v := range l.views {
			v.bind(st)
		}
		return
	}
	if anchor != nil {
		for i, st := range l.rows {
			if st == anchor {
				l.scroll.Offset.Y = max(0, off+l.tops[i]-anchorY)
				break
			}
		}
	}
	l.scroll.Refresh()
}

// measure recomputes the heights of cards that changed, and the tops. It
// reports whether any top moved.
func (l *cardList) measure(m cardMetrics) (moved bool) {
	gap := m.pad
	width := l.scroll.Size().Width
	l.width = width
	cols := m.commandCols(width)
	moved = len(l.tops) != len(l.rows)+1
	l.tops = slices.Grow(l.tops[:0], len(l.rows)+1)[:len(l.rows)+1]
	y := float32(0)
	for i, st := range l.rows {
		// Only an open card's height depends on the width.
		if st.heightFor != st.version || st.height == 0 || (st.widthFor != width && st.showsCommand()) {
			st.wrapCommand(cols)
			st.height, st.heightFor, st.widthFor = m.height(st), st.version, width
		}
		moved = moved || l.tops[i] != y
		l.tops[i] = y
		y += st.height + gap
	}
	moved = moved || l.tops[len(l.rows)] != y
	l.tops[len(l.rows)] = y
	return moved
}

func (l *cardList) total() float32 {
	if len(l.rows) == 0 {
		return 0
	}
	return l.tops[len(l.rows)] - l.side.metrics().pad
}

func (l *cardList) firstVisible(off float32) int {
	return sort.Search(len(l.rows), func(i int) bool { return l.tops[i+1] > off })
}

// scrollTo brings row i into view, aligning it at the top if it was not
// wholly visible. Before the list is laid out it waits until it is.
func (l *cardList) scrollTo(i int) {
	if l.scroll.Size().Height <= 0 {
		l.reveal = l.rows[i]
		return
	}
	if l.moveTo(i) {
		l.scroll.Refresh()
	}
}

// moveTo sets the offset that shows row i and reports whether it moved.
func (l *cardList) moveTo(i int) bool {
	top, bottom := l.tops[i], l.tops[i]+l.rows[i].height
	off, h := l.scroll.Offset.Y, l.scroll.Size().Height
	if top >= off && bottom <= off+h {
		return false
	}
	l.scroll.Offset.Y = max(0, min(top, l.total()-h))
	return l.scroll.Offset.Y != off
}

// place binds views to the visible cards and recycles the rest.
func (l *cardList) place() {
	if st := l.reveal; st != nil && l.scroll.Size().Height > 0 {
		l.reveal = nil
		for i, o := range l.rows {
			if o == st && l.moveTo(i) {
				l.scroll.Refresh() // draws the bars and places again
				return
			}
		}
	}
	width := l.scroll.Size().Width
	if width != l.width && len(l.rows) > 0 {
		// Resized: open cards' commands wrap again. Refreshing the scroll
		// for the new height places again, at this width.
		if l.measure(l.side.metrics()) {
			l.scroll.Refresh()
			return
		}
	}
	off, h := l.scroll.Offset.Y, l.scroll.Size().Height
	first := l.firstVisible(off)
	last := first
	for last < len(l.rows) && l.tops[last] < off+h {
		last++
	}

	l.pass++
	for _, st := range l.rows[first:last] {
		st.placed = l.pass
	}
	for st, v := range l.views {
		if st.placed != l.pass {
			delete(l.views, st)
			l.spare = append(l.spare, v)
		}
	}

	l.objs = l.objs[:0]
	for i := first; i < last; i++ {
		st := l.rows[i]
		v := l.views[st]
		if v == nil {
			v = l.takeView()
			l.views[st] = v
		}
		v.bind(st)
		v.Move(fyne.NewPos(0, l.tops[i]))
		v.Resize(fyne.NewSize(width, st.height))
		l.objs = append(l.objs, v)
	}
}

func (l *cardList) takeView() *toolCardView {
	if k := len(l.spare); k > 0 {
		v := l.spare[k-1]
		l.spare = l.spare[:k-1]
		return v
	}
	return newToolCardView(l.side)
}

// tick passes the time to the visible running cards; those off screen
// catch up when they are bound again.
func (l *cardList) tick(now time.Time) {
	for st, v := range l.views {
		if st.card.Status == model.ToolRunning {
			v.tick(now)
		}
	}
}

// cardListContent is the scrolled content: as tall as all cards, holding
// views only for those on screen.
type cardListContent struct {
	widget.BaseWidget
	l *cardList
}

func (c *cardListContent) CreateRenderer() fyne.WidgetRenderer {
	return &cardListRenderer{l: c.l}
}

type cardListRenderer struct {
	l *cardList
}

func (r *cardListRenderer) Destroy() {}

func (r *cardListRenderer) Layout(fyne.Size) { r.l.place() }

func (r *cardListRenderer) MinSize() fyne.Size { return fyne.NewSize(0, r.l.total()) }

func (r *cardListRenderer) Objects() []fyne.CanvasObject { return r.l.objs }

// Refresh re-places the views; each redraws only if its card changed.
func (r *cardListRenderer) Refresh() { r.l.place() }
