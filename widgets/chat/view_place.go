package chat

import (
	"math"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/widgets/kit"
)

// windowMargin is how far beyond the screen, above and below, entries
// are placed and lines drawn: a few lines, so that a wheel notch does not
// always bring new ones.
const windowMargin = 72

// rowHeight rounds an entry's height up to a multiple of 4 pixels. Fyne
// places objects in float32, which holds every integer only up to 2^24;
// tops made of multiples of 4 stay exact up to 2^26 pixels, a transcript
// of 12,000 long replies. The rounding is lost in the entry's padding.
func rowHeight(h float32) float32 {
	return float32(math.Ceil(float64(h)/4) * 4)
}

// maxPlacePasses bounds how often one placing measures newly shown
// entries and places again: each pass can bring entries on screen whose
// guessed height was wrong.
const maxPlacePasses = 8

// Place decides what is on screen and puts it there: the scroll offset
// (the end while following, else where the anchor entry keeps its place),
// the views of the entries near the screen, measured for the width, and
// the window each of them draws.
func (cv *ChatView) Place() {
	if cv.placing {
		return
	}
	cv.placing = true
	defer func() { cv.placing = false }()

	size := cv.scroll.Size()
	if size.Width <= 0 || size.Height <= 0 || len(cv.items) == 0 {
		cv.dropShown()
		cv.endHeight = 0
		cv.content.Resize(fyne.NewSize(max(size.Width, 0), max(size.Height, 0)))
		cv.scroll.Offset.Y = 0
		cv.scroll.Refresh()
		return
	}
	cv.rows.gap = cv.entryGap()
	cv.scroll.line = cv.lineHeight()
	cv.restyleIfNeeded(size.Width)
	view := float64(size.Height)
	margin := float64(windowMargin)

	var off float64
	first, last := 0, 0
	for pass := 0; pass < maxPlacePasses; pass++ {
		off = cv.targetOffset(view)
		first = cv.rows.at(off - margin)
		last = cv.rows.at(off+view+margin) + 1
		if !cv.measure(first, last, size.Width) {
			break
		}
	}
	off = cv.targetOffset(view)
	if cv.follow {
		// At the end, a whole pixel: rows start at whole pixels too
		// (heights are rounded), so every position on screen is exact in
		// float32 however long the transcript, and the last screen shows
		// the same pixels whatever comes before it (older history put
		// under a screen painted from the session file). Not while the
		// user scrolls: a fraction of a wheel's step would be lost.
		off = math.Floor(off)
	}
	first = cv.rows.at(off - margin)
	last = cv.rows.at(off+view+margin) + 1
	cv.show(first, last, size.Width)

	height := float32(max(cv.rows.total(), view))
	cv.endHeight = 0
	if cv.follow {
		height = endingAt(float32(off), size.Height)
		cv.endHeight = height
	}
	cv.content.Resize(fyne.NewSize(size.Width, height))
	cv.scroll.Offset.Y = float32(off)
	cv.scroll.Refresh()
	win := kit.RowWindow{Top: float32(off - margin), Bottom: float32(off + view + margin)}
	for _, e := range cv.shown {
		w := win.Shifted(float32(cv.rows.topOf(e.index)))
		e.view.SetWindow(w.Top, w.Bottom)
	}
	if cv.sel.active || cv.selDrawn || cv.find.query != "" {
		cv.drawSelection()
	}
	if cv.follow {
		cv.unseen = false
	}
	cv.showLatest(cv.unseen && !cv.follow)
	// The views' objects changed without a refresh of theirs.
	kit.RequestFrame(cv)
}

// endingAt is the content height whose last screen starts at off, for a
// screen view tall, as the scroll computes it in float32: the scroll then
// sees nothing below (no "more below" shadow) and keeps off as it is (it
// would move a larger offset back to the end, by a fraction). The last
// entry may lose less than a pixel of its bottom margin.
func endingAt(off, view float32) float32 {
	h := off + view
	for h-view > off {
		h = math.Nextafter32(h, 0)
	}
	return h
}

// targetOffset is where the screen should start: at the end while
// following, else where the anchor entry stays put.
func (cv *ChatView) targetOffset(view float64) float64 {
	end := max(cv.rows.total()-view, 0)
	if cv.follow {
		return end
	}
	i, ok := cv.ids[cv.anchorID]
	if !ok {
		return min(float64(cv.scroll.Offset.Y), end)
	}
	return min(max(cv.rows.topOf(i)+cv.anchorDY, 0), end)
}

// measure measures the entries in [first, last) that have no height for
// the width yet, reporting whether any height changed.
func (cv *ChatView) measure(first, last int, width float32) bool {
	changed := false
	for i := first; i < last; i++ {
		if cv.rows.measured[i] {
			continue
		}
		v := cv.viewFor(&cv.items[i])
		h := rowHeight(v.HeightAt(width))
		if h != cv.rows.h[i] {
			changed = true
		}
		cv.rows.Set(i, h, true)
	}
	return changed
}

// show puts the views of [first, last) in the tree and takes the others
// out, letting go of what they drew.
func (cv *ChatView) show(first, last int, width float32) {
	before := make(map[itemView]bool, len(cv.shown))
	for _, e := range cv.shown {
		before[e.view] = true
	}
	cv.shown = cv.shown[:0]
	cv.objs = cv.objs[:0]
	for i := first; i < last; i++ {
		v := cv.viewFor(&cv.items[i])
		if !cv.rows.measured[i] {
			cv.rows.Set(i, rowHeight(v.HeightAt(width)), true)
		}
		v.Move(fyne.NewPos(0, float32(cv.rows.topOf(i))))
		v.Resize(fyne.NewSize(width, cv.rows.h[i]))
		cv.shown = append(cv.shown, shownEntry{index: i, view: v})
		cv.objs = append(cv.objs, v)
		if !before[v] {
			cv.viewsBound++
		}
		delete(before, v)
	}
	for v := range before {
		v.SetWindow(0, 0)
	}
	cv.views.keep(2 * len(cv.shown))
}

// dropShown takes every view out of the tree.
func (cv *ChatView) dropShown() {
	for _, e := range cv.shown {
		e.view.SetWindow(0, 0)
	}
	cv.shown = nil
	cv.objs = cv.objs[:0]
}

// scrolled follows a move of the offset that the chat view did not make:
// the user scrolled, or the scroll clamped it.
func (cv *ChatView) scrolled(fyne.Position) {
	if cv.placing {
		return
	}
	cv.follow = cv.atBottom()
	if !cv.follow {
		cv.takeAnchor()
	}
	cv.Place()
}

// takeAnchor remembers the entry at the top of the screen.
func (cv *ChatView) takeAnchor() {
	if len(cv.items) == 0 {
		return
	}
	off := float64(cv.scroll.Offset.Y)
	i := cv.rows.at(off)
	cv.anchorID, cv.anchorDY = cv.items[i].ID, off-cv.rows.topOf(i)
}

// atBottom says whether the end of the transcript is on screen.
func (cv *ChatView) atBottom() bool {
	view := float64(cv.scroll.Size().Height)
	total := cv.rows.total()
	return total <= view || float64(cv.scroll.Offset.Y)+view >= total-followSlack
}

// measureWidth is the width entries are measured for, or a guess before
// the view has one.
func (cv *ChatView) measureWidth() float32 {
	if w := cv.scroll.Size().Width; w > 0 {
		return w
	}
	return estimateWidth
}

// restyleIfNeeded forgets the heights measured for another width or look.
func (cv *ChatView) restyleIfNeeded(width float32) {
	st := kit.LookStampOf(cv.Theme())
	if width == cv.measuredW && st == cv.stamp {
		return
	}
	cv.measuredW, cv.stamp = width, st
	cv.rows.forget()
}

// shownView is the view of entry i if it is in the tree.
func (cv *ChatView) shownView(i int) itemView {
	for _, e := range cv.shown {
		if e.index == i {
			return e.view
		}
	}
	return nil
}
