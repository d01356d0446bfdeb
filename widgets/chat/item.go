package chat

import (
	"container/list"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// itemView draws one transcript entry. It is built once per entry and
// brought up to date in place when the entry's Revision changes, so a
// streaming reply re-renders only its markdown tail.
type itemView interface {
	kit.SelfLaying
	kit.Windowed
	update(it *model.ChatItem)
}

// chatEnv is what item views need from the chat view around them.
type chatEnv struct {
	toolTapped func(toolCallID string)
	// relayout is called when a view changed height by itself (a thinking
	// block or summary was expanded).
	relayout func(id string)
	// expanded remembers which collapsible parts are open, by item ID and
	// part, so the choice survives the view being recycled.
	expanded map[string]bool
	// editPrompt, if set, is called with a prompt the user wants to edit
	// and send again.
	editPrompt func(id, text string)
	// takeBack and sendAgain act on prompts the agent has not taken
	// (Waiting and Stuck): back into the editor, or out once more.
	takeBack, sendAgain func(id string)
	// restoreFiles, if set, is offered on the user's sent messages: put
	// the folder's files back as they were before the message went out.
	restoreFiles func(id string)
}

// repaintView lays out and repaints a view whose content changed. Views
// other than replies change rarely, so they repaint whole.
func repaintView(v kit.SelfLaying) {
	if s := v.Size(); s.Width > 0 {
		kit.LayoutSelf(v, s)
		canvas.Refresh(v)
	}
}

func newItemView(it *model.ChatItem, env *chatEnv) itemView {
	switch it.Kind {
	case model.ChatUser:
		return newUserView(it.ID, env)
	case model.ChatAssistant:
		return newReplyView(it.ID, env)
	case model.ChatBash:
		return newBashView()
	case model.ChatCompaction, model.ChatBranchSummary, model.ChatCustom:
		return newSummaryCard(it.ID, env)
	}
	return newNoticeView()
}

// copyChatItem copies src into dst, including everything the caller may
// reuse or change after SetItems returns: the slices and the exit code.
func copyChatItem(dst, src *model.ChatItem) {
	*dst = *src
	it := dst
	if it.Blocks != nil {
		it.Blocks = append([]model.ChatBlock(nil), it.Blocks...)
	}
	if it.Images != nil {
		imgs := make([]model.Thumbnail, len(it.Images))
		for i, t := range it.Images {
			imgs[i] = model.Thumbnail{Data: append([]byte(nil), t.Data...), MimeType: t.MimeType}
		}
		it.Images = imgs
	}
	if it.ExitCode != nil {
		code := *it.ExitCode
		it.ExitCode = &code
	}
}

// chatInsets is the space around an entry's content inside its row.
func chatInsets(th fyne.Theme) (x, y float32) {
	return th.Size(theme.SizeNameInnerPadding) * 2, th.Size(theme.SizeNamePadding) * 2
}

// chatViewCache keeps the views of recently shown entries, most recent first,
// so scrolling back and forth does not parse their markdown again. It is
// bounded: a long session must not keep a widget tree per entry.
type chatViewCache struct {
	limit int
	order *list.List
	byID  map[string]*list.Element
}

type cachedView struct {
	id    string
	kind  model.ChatKind
	rev   uint64
	stamp kit.LookStamp
	view  itemView
}

func newChatViewCache(limit int) *chatViewCache {
	return &chatViewCache{limit: limit, order: list.New(), byID: map[string]*list.Element{}}
}

func (c *chatViewCache) get(id string) *cachedView {
	e, ok := c.byID[id]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedView)
}

func (c *chatViewCache) put(v *cachedView) {
	if e, ok := c.byID[v.id]; ok {
		c.order.Remove(e)
	}
	c.byID[v.id] = c.order.PushFront(v)
	for c.order.Len() > c.limit {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*cachedView).id)
	}
}

// keep makes room for at least n views: those on screen must never be
// the ones evicted.
func (c *chatViewCache) keep(n int) {
	c.limit = max(c.limit, n)
}

// each visits every cached view.
func (c *chatViewCache) each(f func(*cachedView)) {
	for e := c.order.Front(); e != nil; e = e.Next() {
		f(e.Value.(*cachedView))
	}
}

// Every view windows its parts; a field of the same name would hide the
// method and, silently, the windowing.
var (
	_ kit.PartsWindowing = (*replyView)(nil)
	_ kit.PartsWindowing = (*userView)(nil)
	_ kit.PartsWindowing = (*bashView)(nil)
	_ kit.PartsWindowing = (*summaryCard)(nil)
	_ kit.PartsWindowing = (*noticeView)(nil)
	_ kit.PartsWindowing = (*thinkingView)(nil)
	_ kit.PartsWindowing = (*noteLine)(nil)
	_ kit.PartsWindowing = (*chipRow)(nil)
)
