package chat

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/markdown"
)

// tripleClick is how soon after a double click a third click selects the
// whole paragraph.
const tripleClick = 500 * time.Millisecond

var (
	_ desktop.Mouseable        = (*chatContent)(nil)
	_ fyne.Draggable           = (*chatContent)(nil)
	_ fyne.DoubleTappable      = (*chatContent)(nil)
	_ fyne.SecondaryTappable   = (*chatContent)(nil)
	_ desktop.Cursorable       = (*chatContent)(nil)
	_ markdown.Selectable      = (*markdown.TextFlow)(nil)
	_ markdown.Selectable      = (*markdown.CodeBlock)(nil)
	_ markdown.Selectable      = (*markdown.MonoBlock)(nil)
	_ markdown.SelectionParent = (*replyView)(nil)
	_ markdown.SelectionParent = (*markdown.MarkdownView)(nil)
	_ markdown.SelectionParent = (*markdown.MdTable)(nil)
	_ markdown.SelectionParent = (*markdown.MdList)(nil)
	_ markdown.SelectionParent = (*markdown.MdQuote)(nil)
	_ markdown.SelectionParent = (*markdown.FlowStack)(nil)
	_ markdown.SelectionParent = (*userView)(nil)
	_ markdown.SelectionParent = (*thinkingView)(nil)
	_ markdown.SelectionParent = (*bashView)(nil)
	_ markdown.SelectionParent = (*summaryCard)(nil)
	_ markdown.SelectionParent = (*noticeView)(nil)
	_ markdown.SelectionParent = (*noteLine)(nil)
)

// MouseDown starts a selection where the button went down, or with Shift
// held moves the end of the one there is; a third click soon after a
// double click selects the whole paragraph.
func (c *chatContent) MouseDown(ev *desktop.MouseEvent) {
	if ev.Button != desktop.MouseButtonPrimary {
		return
	}
	cv := c.cv
	switch {
	case time.Since(cv.doubleAt) < tripleClick && near(ev.Position, cv.doublePos):
		cv.selectWordAt(ev.Position, true)
	case ev.Modifier&fyne.KeyModifierShift != 0 && cv.sel.active:
		cv.selectTo(ev.Position)
	default:
		cv.selectFrom(ev.Position)
	}
}

func near(a, b fyne.Position) bool {
	d := a.Subtract(b)
	return d.X*d.X+d.Y*d.Y < 25
}

func (c *chatContent) MouseUp(*desktop.MouseEvent) {}

// Dragged moves the end of the selection with the pointer, scrolling the
// transcript when the pointer is above or below it.
func (c *chatContent) Dragged(ev *fyne.DragEvent) {
	cv := c.cv
	onScreen := ev.Position.Y - cv.scroll.Offset.Y
	switch h := cv.scroll.Size().Height; {
	case onScreen < 0:
		cv.ScrollBy(onScreen / 2)
	case onScreen > h:
		cv.ScrollBy((onScreen - h) / 2)
	}
	cv.selectTo(ev.Position)
}

func (c *chatContent) DragEnd() {}

// Tapped is a click that did not drag: it already placed the (empty)
// selection on MouseDown.
func (c *chatContent) Tapped(*fyne.PointEvent) {}

// DoubleTapped selects the word under the pointer.
func (c *chatContent) DoubleTapped(ev *fyne.PointEvent) {
	c.cv.selectWordAt(ev.Position, false)
	c.cv.doubleAt, c.cv.doublePos = time.Now(), ev.Position
}

// TappedSecondary opens the transcript's menu: copy the selection, copy
// the message as markdown, select all of the message.
func (c *chatContent) TappedSecondary(ev *fyne.PointEvent) {
	cv := c.cv
	cnv := fyne.CurrentApp().Driver().CanvasForObject(c)
	if cnv == nil || len(cv.items) == 0 {
		return
	}
	i := cv.rows.at(float64(ev.Position.Y))
	it := cv.items[i]
	copySel := fyne.NewMenuItem("Copy", func() { cv.CopySelection() })
	copySel.Disabled = !cv.HasSelection()
	pos := ev.Position
	menu := fyne.NewMenu("",
		copySel,
		fyne.NewMenuItem("Copy as Markdown", func() {
			fyne.CurrentApp().Clipboard().SetContent(itemMarkdown(&it))
		}),
		fyne.NewMenuItem("Select All in This Message", func() { cv.selectEntryAt(pos) }),
	)
	if restore := cv.env.restoreFiles; restore != nil && it.Kind == model.ChatUser && !it.Sent.IsZero() {
		id := it.ID
		menu.Items = append(menu.Items, fyne.NewMenuItemSeparator(),
			fyne.NewMenuItem("Restore Files to Before This Message…", func() { restore(id) }))
	}
	widget.ShowPopUpMenuAtPosition(menu, cnv, ev.AbsolutePosition)
}

// Cursor is the text cursor: the transcript is text to select.
func (c *chatContent) Cursor() desktop.Cursor { return desktop.TextCursor }

// itemMarkdown is an entry's source: a reply's markdown, a prompt's text,
// a command with its output.
func itemMarkdown(it *model.ChatItem) string {
	switch it.Kind {
	case model.ChatAssistant:
		var parts []string
		for _, b := range it.Blocks {
			if b.Kind == model.BlockText {
				parts = append(parts, b.Text)
			}
		}
		return strings.Join(parts, "\n\n")
	case model.ChatBash:
		return "$ " + it.Command + "\n" + it.Text
	}
	return it.Text
}
