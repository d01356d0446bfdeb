package chat

import (
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// maxMovedEntries is how many entries may change place in one update
// before the transcript is laid out afresh.
const maxMovedEntries = 32

// estimateWidth stands in for the width before the view has one.
const estimateWidth = 760

// chatViewCacheSize is how many entries keep their views (text and layout
// numbers, no canvas objects) while off screen: several screens' worth,
// never the whole session.
const chatViewCacheSize = 64

// followSlack is how far above the end still counts as "at the bottom".
const followSlack = 4

// ChatView shows the transcript: user prompts, replies with their
// markdown, thinking and tool-call chips, bash runs, summaries and
// notices.
//
// It is its own virtual list: a scroll over a content as tall as the whole
// transcript, holding views only for the entries near the screen, and it
// passes them the window of their rows that is on screen (window.go), so
// a reply of thousands of lines puts objects in the tree only for the
// lines in view. Entry heights are measured when an entry reaches the
// screen and guessed before. An entry is redrawn only when its Revision
// changes; a streaming reply updates in place, re-rendering its markdown
// tail. The view follows new content while scrolled to the bottom and
// otherwise keeps the entry at the top of the screen where it is, however
// the heights above it change.
type ChatView struct {
	widget.BaseWidget

	// OnToolChipTapped is called with the tool call ID of a tapped chip.
	OnToolChipTapped func(toolCallID string)
	// OnSelectStart is called when a selection starts in the transcript,
	// for the window to drop one elsewhere.
	OnSelectStart func()

	scroll  *chatScroll
	content *chatContent
	// endHeight is the content's height while following (endingAt), 0
	// otherwise: the scroll sizes the content to its MinSize when it lays
	// out, so MinSize says it too.
	endHeight float32
	// latest takes the user to the end when new content arrived while
	// they read above it.
	latest *widget.Button
	unseen bool

	items []model.ChatItem
	ids   map[string]int
	rows  chatRows
	views *chatViewCache
	env   chatEnv
	shown []shownEntry
	objs  []fyne.CanvasObject

	follow bool
	// anchor is the entry at the top of the screen and how far into it the
	// screen starts, while not following.
	anchorID string
	anchorDY float64

	// sel is the selected text; doubleAt and doublePos the last double
	// click, for a triple one.
	sel      chatSelection
	selDrawn bool
	find     findState

	// OnFindChanged is called when the current match or the count of
	// matches of Find changed.
	OnFindChanged func()
	doubleAt      time.Time
	doublePos     fyne.Position

	placing   bool
	measuredW float32
	stamp     kit.LookStamp

	// viewsBuilt counts entry views built, viewsBound views put in the
	// tree: the cost of virtualisation, for tests.
	viewsBuilt, viewsBound int
}

type shownEntry struct {
	index int
	view  itemView
}

// NewChatView returns an empty transcript view.
func NewChatView() *ChatView {
	cv := &ChatView{
		views:  newChatViewCache(chatViewCacheSize),
		ids:    map[string]int{},
		follow: true,
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
	cv.content = &chatContent{cv: cv}
	cv.content.ExtendBaseWidget(cv.content)
	cv.scroll = newChatScroll(cv.content, cv.scrolled)
	cv.latest = widget.NewButtonWithIcon("Latest", theme.MoveDownIcon(), cv.ScrollToBottom)
	cv.latest.Importance = widget.HighImportance
	cv.latest.Hide()
	cv.ExtendBaseWidget(cv)
	return cv
}

// SetItems shows the whole transcript. Call it at most once per frame;
// items may be reused by the caller afterwards.
func (cv *ChatView) SetItems(items []model.ChatItem) {
	if cv.scroll.Size().Height > 0 && len(cv.items) > 0 {
		cv.follow = cv.atBottom()
		if !cv.follow {
			cv.takeAnchor()
		}
	}
	width := cv.measureWidth()
	guess := func(i int) float32 { return estimateHeight(&items[i], width) }
	switch {
	case cv.prepends(items):
		cv.prepend(items, guess)
	case cv.replacesTranscript(items):
		cv.items = cv.items[:0]
		cv.dropShown()
		cv.follow = true
		cv.items = copyChatItems(cv.items, items)
		cv.rows.Reset(len(items), guess)
		cv.reindex()
	default:
		cv.update(items, guess)
	}
	if !cv.follow {
		cv.unseen = true
	}
	cv.Place()
}

// update takes the next state of the transcript shown: entries changed in
// place, added at the end or cut from it.
func (cv *ChatView) update(items []model.ChatItem, guess func(int) float32) {
	old := len(cv.items)
	moved := false
	for i := range items {
		if i >= old {
			break
		}
		cur := &cv.items[i]
		if cur.ID == items[i].ID && cur.Revision == items[i].Revision {
			continue
		}
		if cur.ID != items[i].ID {
			moved = true
			cv.rows.Set(i, guess(i), false)
		} else {
			cv.rows.measured[i] = false
		}
		copyChatItem(cur, &items[i])
	}
	if len(items) < old {
		cv.items = cv.items[:len(items)]
	}
	for i := old; i < len(items); i++ {
		cv.items = append(cv.items, model.ChatItem{})
		copyChatItem(&cv.items[i], &items[i])
	}
	cv.rows.resize(len(items), guess)
	if moved || len(items) < old {
		cv.reindex()
	} else {
		for i := old; i < len(items); i++ {
			cv.ids[items[i].ID] = i
		}
	}
}

// prepends says whether items is the transcript shown with older entries
// put before it, as when a long session is loaded from its end.
func (cv *ChatView) prepends(items []model.ChatItem) bool {
	n, m := len(cv.items), len(items)
	if n == 0 || m <= n {
		return false
	}
	k := m - n
	return items[k].ID == cv.items[0].ID && items[m-1].ID == cv.items[n-1].ID
}

// prepend keeps the rows of the entries shown, now further down.
func (cv *ChatView) prepend(items []model.ChatItem, guess func(int) float32) {
	k := len(items) - len(cv.items)
	old, oldH, oldM := cv.items, cv.rows.h, cv.rows.measured
	cv.items = copyChatItems(make([]model.ChatItem, 0, len(items)), items)
	cv.rows.Reset(len(items), guess)
	for i := range old {
		if old[i].ID == items[k+i].ID && old[i].Revision == items[k+i].Revision {
			cv.rows.Set(k+i, oldH[i], oldM[i])
		}
	}
	for i := range cv.shown {
		cv.shown[i].index += k
	}
	cv.reindex()
}

func copyChatItems(dst, src []model.ChatItem) []model.ChatItem {
	dst = slices.Grow(dst, len(src))
	for i := range src {
		dst = append(dst, model.ChatItem{})
		copyChatItem(&dst[len(dst)-1], &src[i])
	}
	return dst
}

func (cv *ChatView) reindex() {
	clear(cv.ids)
	for i := range cv.items {
		cv.ids[cv.items[i].ID] = i
	}
}

// replacesTranscript says whether items is a different transcript rather
// than the next state of the one shown (a session was opened or the
// conversation switched branch): its rows are then laid out from scratch.
func (cv *ChatView) replacesTranscript(items []model.ChatItem) bool {
	switch {
	case len(cv.items) == 0:
		return len(items) > 0
	case len(items) == 0:
		return true
	case items[0].ID != cv.items[0].ID:
		return true
	}
	// Entries inserted or removed early on move everything after them.
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

// ScrollToBottom shows the end of the transcript and follows new content
// from then on.
func (cv *ChatView) ScrollToBottom() {
	cv.follow = true
	cv.Place()
}

// viewFor returns the entry's view, built or brought up to date.
func (cv *ChatView) viewFor(it *model.ChatItem) itemView {
	st := kit.LookStampOf(cv.Theme())
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
	}
	return c.view
}

// relayoutItem measures again an entry whose view changed height by
// itself: a thinking block or summary opened, "Show all", a long text's
// next layout step.
func (cv *ChatView) relayoutItem(id string) {
	if i, ok := cv.ids[id]; ok {
		cv.rows.measured[i] = false
		cv.Place()
	}
}

func (cv *ChatView) CreateRenderer() fyne.WidgetRenderer {
	return &chatViewRenderer{cv: cv}
}

type chatViewRenderer struct {
	cv *ChatView
}

func (r *chatViewRenderer) Layout(size fyne.Size) {
	r.cv.scroll.Resize(size)
	r.cv.Place()
	r.cv.placeLatest()
}

func (r *chatViewRenderer) MinSize() fyne.Size { return r.cv.scroll.MinSize() }

// Refresh is a theme change or an explicit refresh: everything shown is
// measured again.
func (r *chatViewRenderer) Refresh() {
	r.cv.Place()
}

func (r *chatViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.cv.scroll, r.cv.latest}
}

func (r *chatViewRenderer) Destroy() {}

// chatScroll is the transcript's scroll; every move of its offset, by the
// user or by clamping, goes to the chat view.
type chatScroll struct {
	container.Scroll
	// line is the height of a line of text, for the wheel.
	line float32
}

func newChatScroll(content fyne.CanvasObject, moved func(fyne.Position)) *chatScroll {
	s := &chatScroll{}
	s.Direction = container.ScrollVerticalOnly
	s.Content = content
	s.OnScrolled = moved
	s.ExtendBaseWidget(s)
	return s
}

// chatContent is the scrolled content: as tall as the transcript, holding
// only the views placed near the screen.
type chatContent struct {
	widget.BaseWidget
	cv *ChatView
}

func (c *chatContent) CreateRenderer() fyne.WidgetRenderer { return &chatContentRenderer{cv: c.cv} }

type chatContentRenderer struct {
	cv *ChatView
}

func (r *chatContentRenderer) Layout(fyne.Size) {}

func (r *chatContentRenderer) MinSize() fyne.Size {
	if h := r.cv.endHeight; h > 0 {
		return fyne.NewSize(0, h)
	}
	return fyne.NewSize(0, float32(r.cv.rows.total()))
}

// Refresh comes from the scroll's own refresh: the views are placed by
// the chat view, and a canvas refresh here would free the textures of
// everything on screen.
func (r *chatContentRenderer) Refresh() {}

func (r *chatContentRenderer) Objects() []fyne.CanvasObject { return r.cv.objs }

func (r *chatContentRenderer) Destroy() {}

// entryGap is the space between entries.
func (cv *ChatView) entryGap() float32 { return cv.Theme().Size(theme.SizeNamePadding) }

// SetOnStuckPrompt offers, on a prompt the agent has not taken for long,
// "Back to editor" (takeBack) and "Send again" (sendAgain), each given the
// entry's ID. Set them before items are shown.
func (cv *ChatView) SetOnStuckPrompt(takeBack, sendAgain func(id string)) {
	cv.env.takeBack, cv.env.sendAgain = takeBack, sendAgain
}

// SetOnRestoreFiles offers, in the menu of every user message the agent
// took, "Restore Files to Before This Message": f gets the entry's ID.
func (cv *ChatView) SetOnRestoreFiles(f func(id string)) {
	cv.env.restoreFiles = f
}

// SetOnEditPrompt offers Edit on the user's prompts: f gets the entry's ID
// and its text. Set it before items are shown.
func (cv *ChatView) SetOnEditPrompt(f func(id, text string)) {
	cv.env.editPrompt = f
}
