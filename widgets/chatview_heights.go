package widgets

import (
	"math"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// maxOffset asks the list for its end; it clamps to the real one.
const maxOffset = math.MaxFloat32

// followSlack is how far above the end still counts as "at the bottom".
const followSlack = 4

// Row heights are measured when a row is bound (the list's UpdateItem),
// but cannot be handed to the list there: SetItemHeight re-runs the
// list's layout, and doing that from inside its layout corrupts the list's
// row bookkeeping (rows are pooled twice). So heights wait in pending and
// are given to the list at safe points: before SetItems, ScrollToBottom
// and the view's layout return, and otherwise on the next turn of the
// event loop via fyne.Do, which the app driver runs after the current
// event.

// measure records entry i's height for the list's width.
func (cv *ChatView) measure(i int, v itemView) {
	w := cv.list.Size().Width
	if w <= 0 {
		return
	}
	if h := rowHeight(v.heightAt(w)); h != cv.heights[i] {
		cv.pending[i] = h
		cv.queueFlush()
	}
}

// rowHeight rounds a height up to a multiple of 4 pixels. The list adds
// heights up in float32 (in two different orders, for row positions and
// for the scroll extent); multiples of 4 keep those sums exact up to 2^26
// pixels, so they agree even in a session tens of thousands of screens
// long. The rounding is lost in the rows' own padding.
func rowHeight(h float32) float32 {
	return float32(math.Ceil(float64(h)/4) * 4)
}

func (cv *ChatView) queueFlush() {
	if cv.safe > 0 || cv.flushQueued {
		return
	}
	cv.flushQueued = true
	fyne.Do(func() {
		cv.flushQueued = false
		// The test driver runs this at once, still inside the list's
		// layout; the next safe point will flush instead.
		if cv.binding == 0 {
			cv.safe++
			cv.flush()
			cv.safe--
		}
	})
}

// flush gives the list the heights measured since the last flush. Each
// height can bring new rows on screen, which are measured in turn.
func (cv *ChatView) flush() {
	for pass := 0; pass < 16 && len(cv.pending) > 0; pass++ {
		idx := make([]int, 0, len(cv.pending))
		for i := range cv.pending {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		p := cv.pending
		cv.pending = map[int]float32{}
		for _, i := range idx {
			if i < len(cv.heights) {
				cv.heights[i] = p[i]
				cv.list.SetItemHeight(i, p[i])
			}
		}
	}
}

// scrollToEnd scrolls to the bottom until the rows brought on screen have
// been measured and the bottom stays put.
func (cv *ChatView) scrollToEnd() {
	if len(cv.items) == 0 || cv.list.Size().Height <= 0 {
		return
	}
	cv.safe++
	defer func() { cv.safe-- }()
	for pass := 0; pass < 16; pass++ {
		cv.list.ScrollToOffset(maxOffset)
		if len(cv.pending) == 0 {
			return
		}
		cv.flush()
	}
}

// contentHeight is the height of all rows as the list knows them.
func (cv *ChatView) contentHeight() float32 {
	if len(cv.heights) == 0 {
		return 0
	}
	h := float64(0)
	for _, v := range cv.heights {
		if v == 0 {
			v = chatRowEstimate
		}
		h += float64(v)
	}
	return float32(h + float64(cv.list.Theme().Size(theme.SizeNamePadding))*float64(len(cv.heights)-1))
}

// atBottom says whether the end of the transcript is on screen. Past 2^24
// pixels the list's float32 sums drift, so the slack grows with length.
func (cv *ChatView) atBottom() bool {
	view := cv.list.Size().Height
	content := cv.contentHeight()
	slack := followSlack + content*2e-6
	return content <= view || cv.list.GetScrollOffset()+view >= content-slack
}

// relayoutItem re-measures an entry whose view changed height by itself,
// in response to a tap.
func (cv *ChatView) relayoutItem(id string) {
	for i := len(cv.items) - 1; i >= 0; i-- {
		if cv.items[i].ID != id {
			continue
		}
		if row, ok := cv.bound[i]; ok && row.view != nil {
			cv.safe++
			cv.measure(i, row.view)
			if len(cv.pending) == 0 {
				cv.list.RefreshItem(i)
			}
			cv.flush()
			cv.safe--
		}
		return
	}
}

// remeasureIfRestyled measures the rows on screen again after the width
// or the theme changed.
func (cv *ChatView) remeasureIfRestyled() {
	st := lookStampOf(cv.Theme())
	w := cv.list.Size().Width
	if w == cv.measuredW && st == cv.stamp {
		return
	}
	cv.measuredW, cv.stamp = w, st
	for i, row := range cv.bound {
		if row.view != nil && row.index == i && i < len(cv.items) {
			cv.measure(i, row.view)
		}
	}
}
