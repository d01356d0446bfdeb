package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// maxMovedEntries is how many entries may change place in one update
// before the transcript is laid out afresh.
const maxMovedEntries = 32

// estimateWidth stands in for the width before the view has one.
const estimateWidth = 760

// chatViewCacheSize is how many entries keep their rendered views while
// off screen: several screens' worth, never the whole session.
const chatViewCacheSize = 64

// ChatView shows the transcript: user prompts, replies with their
// markdown, thinking and tool-call chips, bash runs, summaries and
// notices.
//
// It is virtualised with widget.List: only entries that reach the screen
// are rendered and measured, so a session of many thousands of entries
// costs a screenful of widgets. An entry is redrawn only when its Revision
// changes; a streaming reply updates in place, re-rendering its markdown
// tail. The view follows new content while scrolled to the bottom and
// stays put when the user has scrolled up.
type ChatView struct {
	widget.BaseWidget

	// OnToolChipTapped is called with the tool call ID of a tapped chip.
	OnToolChipTapped func(toolCallID string)

	list  *widget.List
	items []ChatItem
	// heights[i] is the height the list was given for entry i; 0 means
	// none, and the list assumes chatRowEstimate.
	heights []float32
	views   *chatViewCache
	env     chatEnv
	// bound maps an entry index to the row last bound to it.
	bound   map[int]*chatRow
	pending map[int]float32
	follow  bool

	// safe counts methods in progress that tell the list pending heights
	// before returning; binding counts list callbacks in progress.
	safe, binding int
	flushQueued   bool
	measuredW     float32
	stamp         lookStamp

	// rowsCreated counts CreateItem calls, rowsBound rows given an entry
	// and viewsBuilt entry views built: the cost of virtualisation.
	rowsCreated, rowsBound, viewsBuilt int
}

// NewChatView returns an empty transcript view.
func NewChatView() *ChatView {
	cv := &ChatView{
		views:   newChatViewCache(chatViewCacheSize),
		bound:   map[int]*chatRow{},
		pending: map[int]float32{},
		follow:  true,
	}
	cv.env = chatEnv{
		toolTapped: func(id string) {
			if cv.OnToolChipTapped != nil {
				cv.OnToolChipTapped(id)
			}
		},
		relayout: cv.relayoutItem,
		expanded: map[string]bool{},
	}
	cv.list = cv.newList()
	cv.ExtendBaseWidget(cv)
	return cv
}

func (cv *ChatView) newList() *widget.List {
	l := widget.NewList(
		func() int { return len(cv.items) },
		func() fyne.CanvasObject {
			cv.rowsCreated++
			return newChatRow()
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { cv.bindRow(i, o.(*chatRow)) },
	)
	l.HideSeparators = true
	return l
}

// SetItems shows the whole transcript. Call it at most once per frame;
// items may be reused by the caller afterwards.
func (cv *ChatView) SetItems(items []ChatItem) {
	cv.safe++
	defer func() { cv.safe-- }()
	if cv.list.Size().Height > 0 {
		cv.follow = cv.atBottom()
	}
	fresh := cv.replacesTranscript(items)
	if fresh {
		cv.items, cv.heights = cv.items[:0], cv.heights[:0]
		cv.bound, cv.pending = map[int]*chatRow{}, map[int]float32{}
		cv.list = cv.newList()
	}

	oldLen := len(cv.items)
	if cap(cv.items) < len(items) {
		grown := make([]ChatItem, len(cv.items), len(items)+len(items)/4)
		copy(grown, cv.items)
		cv.items = grown
		cv.heights = append(make([]float32, 0, cap(grown)), cv.heights...)
	}
	var changed, moved []int
	for i := range items {
		if i < len(cv.items) {
			cur := &cv.items[i]
			if cur.ID == items[i].ID && cur.Revision == items[i].Revision {
				continue
			}
			if cur.ID != items[i].ID {
				moved = append(moved, i)
			}
			copyChatItem(cur, &items[i])
		} else {
			cv.items = cv.items[:i+1]
			copyChatItem(&cv.items[i], &items[i])
			cv.heights = append(cv.heights, 0)
		}
		changed = append(changed, i)
	}
	if len(items) < len(cv.items) {
		for i := len(items); i < len(cv.items); i++ {
			delete(cv.bound, i)
			delete(cv.pending, i)
		}
		cv.items, cv.heights = cv.items[:len(items)], cv.heights[:len(items)]
	}

	width := cv.Size().Width
	if width <= 0 {
		width = estimateWidth
	}
	if fresh {
		// The new list has no renderer yet, so these cost no layout.
		for i := range cv.items {
			cv.heights[i] = estimateHeight(&cv.items[i], width)
			cv.list.SetItemHeight(i, cv.heights[i])
		}
		cv.showNewList()
		return
	}
	// New entries, and entries that now sit where another was, get a
	// guessed height until they are measured on screen.
	for i := oldLen; i < len(cv.items); i++ {
		cv.pending[i] = estimateHeight(&cv.items[i], width)
	}
	for _, i := range moved {
		cv.pending[i] = estimateHeight(&cv.items[i], width)
	}
	refreshed := false
	for _, i := range changed {
		if row, onScreen := cv.bound[i]; onScreen {
			cv.redraw(i, row)
			refreshed = true
		}
	}
	if !refreshed && len(cv.items) != oldLen {
		// Nothing on screen changed, but the list must learn its length.
		cv.list.RefreshItem(max(len(cv.items)-1, 0))
	}
	cv.flush()
	if cv.follow {
		cv.scrollToEnd()
	}
}

// replacesTranscript says whether items is a different transcript rather
// than the next state of the one shown (a session was opened or the
// conversation switched branch): its rows are then laid out from scratch.
func (cv *ChatView) replacesTranscript(items []ChatItem) bool {
	switch {
	case len(cv.items) == 0:
		return len(items) > 0
	case len(items) == 0:
		return true
	case items[0].ID != cv.items[0].ID:
		return true
	}
	// Entries inserted or removed early on move everything after them;
	// telling the list each new height would lay it out once per entry.
	moved := 0
	for i := 1; i < min(len(items), len(cv.items)); i++ {
		if items[i].ID != cv.items[i].ID {
			if moved++; moved > maxMovedEntries {
				return true
			}
		}
	}
	return false
}

// showNewList swaps in a list made for a new transcript. The list gets
// its renderer while still zero-sized and is scrolled to the end before
// its first layout, so only the rows at the bottom are ever built.
func (cv *ChatView) showNewList() {
	cv.follow = true
	cv.list.MinSize()
	cv.list.ScrollToOffset(maxOffset)
	cv.list.Resize(cv.Size())
	cv.flush()
	cv.scrollToEnd()
	canvas.Refresh(cv)
}

// redraw brings the on-screen entry i up to date. Its view updates in
// place and repaints only the parts that changed. The list is involved
// only when the row's height changed or a different entry now sits at i:
// every list refresh makes Fyne drop the textures of all visible rows.
func (cv *ChatView) redraw(i int, row *chatRow) {
	v := cv.viewFor(&cv.items[i])
	w := cv.list.Size().Width
	if row.view != v || w <= 0 {
		cv.list.RefreshItem(i)
		return
	}
	if h := rowHeight(v.heightAt(w)); h != cv.heights[i] {
		cv.heights[i] = h
		delete(cv.pending, i)
		cv.list.SetItemHeight(i, h)
	}
}

// ScrollToBottom shows the end of the transcript and follows new content
// from then on.
func (cv *ChatView) ScrollToBottom() {
	cv.follow = true
	cv.scrollToEnd()
}

// bindRow is the list's UpdateItem: it gives row the view of entry i,
// bringing the view up to the entry's revision, and measures it.
func (cv *ChatView) bindRow(i int, row *chatRow) {
	if i >= len(cv.items) {
		return
	}
	cv.binding++
	defer func() { cv.binding-- }()
	v := cv.viewFor(&cv.items[i])
	if row.index >= 0 && cv.bound[row.index] == row {
		delete(cv.bound, row.index)
	}
	if row.view == nil {
		cv.rowsBound++
	}
	row.index = i
	cv.bound[i] = row
	row.show(v)
	cv.measure(i, v)
}

// viewFor returns the entry's view, built or brought up to date.
func (cv *ChatView) viewFor(it *ChatItem) itemView {
	st := lookStampOf(cv.Theme())
	c := cv.views.get(it.ID)
	if c != nil && c.kind != it.Kind {
		c = nil
	}
	if c == nil {
		cv.viewsBuilt++
		c = &cachedView{id: it.ID, kind: it.Kind, rev: it.Revision, stamp: st, view: newItemView(it, &cv.env)}
		c.view.update(it)
		cv.views.put(c)
		return c.view
	}
	if c.stamp != st {
		// Restyled while off screen: the theme refresh did not reach it.
		c.stamp = st
		c.view.Refresh()
	}
	if c.rev != it.Revision {
		c.rev = it.Revision
		c.view.update(it)
		if s := c.view.Size(); s.Width > 0 {
			c.view.layout(s)
		}
	}
	return c.view
}

func (cv *ChatView) CreateRenderer() fyne.WidgetRenderer {
	return &chatViewRenderer{cv: cv}
}

type chatViewRenderer struct {
	cv *ChatView
}

// Layout re-measures the rows on screen when the width or theme changed;
// rows off screen are re-measured when they come back.
func (r *chatViewRenderer) Layout(size fyne.Size) {
	cv := r.cv
	cv.safe++
	defer func() { cv.safe-- }()
	cv.list.Resize(size)
	cv.remeasureIfRestyled()
	cv.flush()
	if cv.follow {
		cv.scrollToEnd()
	}
}

func (r *chatViewRenderer) MinSize() fyne.Size { return r.cv.list.MinSize() }

func (r *chatViewRenderer) Refresh() {
	r.Layout(r.cv.Size())
}

func (r *chatViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.cv.list}
}

func (r *chatViewRenderer) Destroy() {}
