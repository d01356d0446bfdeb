package widgets

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

const selReply = "Hello brave new world, said the first paragraph.\n\nThe second one follows it.\n\n```\nline one\nline two\n```\n"

func selectionChat(t *testing.T, items []model.ChatItem) (*ChatView, fyne.App) {
	t.Helper()
	a := newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(items)
	return cv, a
}

func selItems() []model.ChatItem {
	return []model.ChatItem{
		{ID: "u", Kind: model.ChatUser, Revision: 1, Text: "Tell me"},
		{ID: "a", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake", Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: selReply}}},
	}
}

// at is the content point of byte off of leaf k of entry id: a hair right
// of the character boundary, in the middle of its line.
func at(t *testing.T, cv *ChatView, id string, k, off int) fyne.Position {
	t.Helper()
	i := cv.ids[id]
	leaves := leavesOf(cv.viewFor(&cv.items[i]))
	l := leaves[k]
	origin := l.pos.AddXY(0, float32(cv.rows.topOf(i)))
	switch leaf := l.leaf.(type) {
	case *textFlow:
		for _, line := range leaf.layout.lines {
			for p := line.p0; p < line.p1; p++ {
				pc := &leaf.layout.pieces[p]
				lo, hi := leaf.pieceOffset(pc, pc.start), leaf.pieceOffset(pc, pc.end)
				if off >= lo && off <= hi {
					return origin.AddXY(leaf.xOf(pc, off-leaf.spanBase(int(pc.si)))+0.5, line.y+line.h/2)
				}
			}
		}
	case *codeBlock:
		for i, cl := range leaf.lay.lines {
			if off >= cl.off && off <= cl.off+cl.nb {
				col := len([]rune(leaf.selText()[cl.off:off]))
				return origin.AddXY(leaf.lay.pad+float32(col)*leaf.lay.cell.Width+0.5, leaf.lineTop(i)+leaf.lay.cell.Height/2)
			}
		}
	}
	t.Fatalf("no place for offset %d of leaf %d of %s", off, k, id)
	return fyne.Position{}
}

func drag(cv *ChatView, from, to fyne.Position) {
	cv.content.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from}, Button: desktop.MouseButtonPrimary})
	cv.content.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to}})
	cv.content.DragEnd()
	cv.content.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: to}, Button: desktop.MouseButtonPrimary})
}

// highlights counts the selection rectangles a leaf draws.
func highlights(objs []fyne.CanvasObject) int {
	n := 0
	for _, o := range objs {
		if r, ok := o.(*canvas.Rectangle); ok && r.CornerRadius == 2 {
			n++
		}
	}
	return n
}

func TestChatSelectionByDrag(t *testing.T) {
	cv, _ := selectionChat(t, selItems())
	drag(cv, at(t, cv, "a", 0, 6), at(t, cv, "a", 0, 15))
	if got := cv.SelectedText(); got != "brave new" {
		t.Fatalf("selected %q", got)
	}
	// Across paragraphs and into the code.
	drag(cv, at(t, cv, "a", 0, 38), at(t, cv, "a", 2, 6))
	if got, want := cv.SelectedText(), "paragraph.\nThe second one follows it.\nline o"; got != want {
		t.Fatalf("selected %q, want %q", got, want)
	}
	// Backwards, from the code up into the prompt.
	drag(cv, at(t, cv, "a", 2, 13), at(t, cv, "u", 0, 5))
	if got, want := cv.SelectedText(), "me\n\nHello brave new world, said the first paragraph.\nThe second one follows it.\nline one\nline"; got != want {
		t.Fatalf("selected %q, want %q", got, want)
	}
	// A click without a drag selects nothing.
	drag(cv, at(t, cv, "a", 0, 3), at(t, cv, "a", 0, 3))
	if cv.HasSelection() {
		t.Fatalf("a click left %q selected", cv.SelectedText())
	}
}

func TestChatSelectionWordAndParagraph(t *testing.T) {
	cv, _ := selectionChat(t, selItems())
	p := at(t, cv, "a", 0, 8)
	cv.content.DoubleTapped(&fyne.PointEvent{Position: p})
	if got := cv.SelectedText(); got != "brave" {
		t.Fatalf("double click selected %q", got)
	}
	cv.content.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}, Button: desktop.MouseButtonPrimary})
	if got := cv.SelectedText(); got != "Hello brave new world, said the first paragraph." {
		t.Fatalf("triple click selected %q", got)
	}
	cv.selectEntryAt(p)
	if got := cv.SelectedText(); got != "Hello brave new world, said the first paragraph.\nThe second one follows it.\nline one\nline two" {
		t.Fatalf("select all in the message gave %q", got)
	}
}

func TestChatSelectionSurvivesStreamingAndScrolling(t *testing.T) {
	items := []model.ChatItem{{ID: "a", Kind: model.ChatAssistant, Revision: 1, Streaming: true, Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: "First words here.\n\n"}}}}
	cv, _ := selectionChat(t, items)
	drag(cv, at(t, cv, "a", 0, 0), at(t, cv, "a", 0, 11))
	if got := cv.SelectedText(); got != "First words" {
		t.Fatalf("selected %q", got)
	}
	reply := items[0].Blocks[0].Text + longAnswer(3000)
	for _, c := range streamCuts(reply, 30, 5) {
		items[0].Revision++
		items[0].Blocks[0].Text = reply[:max(c, 20)]
		cv.SetItems(items)
	}
	if got := cv.SelectedText(); got != "First words" {
		t.Fatalf("after streaming the selection is %q", got)
	}
	scrollTo(cv, 0)
	f := replyFlow(t, cv)
	if highlights(f.objects) != 1 {
		t.Fatalf("%d highlight rectangles on the selected line", highlights(f.objects))
	}
	cv.ScrollToBottom()
	if len(f.objects) != 0 {
		t.Fatal("the selected paragraph kept objects off screen")
	}
	scrollTo(cv, 0)
	if highlights(f.objects) != 1 || cv.SelectedText() != "First words" {
		t.Fatalf("back on screen: %d highlights, selection %q", highlights(f.objects), cv.SelectedText())
	}
}

func TestChatSelectionCopy(t *testing.T) {
	cv, a := selectionChat(t, selItems())
	if cv.CopySelection() {
		t.Fatal("copied with nothing selected")
	}
	drag(cv, at(t, cv, "a", 2, 0), at(t, cv, "a", 2, 17))
	if !cv.CopySelection() || a.Clipboard().Content() != "line one\nline two" {
		t.Fatalf("clipboard %q", a.Clipboard().Content())
	}
	// From the editor: Ctrl+C with no draft text selected copies the
	// transcript's selection.
	e := NewPromptEditor()
	e.OnCopy = cv.CopySelection
	a.Clipboard().SetContent("")
	e.TypedShortcut(&fyne.ShortcutCopy{Clipboard: a.Clipboard()})
	if a.Clipboard().Content() != "line one\nline two" {
		t.Fatalf("Ctrl+C in the editor put %q on the clipboard", a.Clipboard().Content())
	}
	if !strings.Contains(itemMarkdown(&cv.items[1]), "```\nline one") {
		t.Fatal("Copy as Markdown does not copy the reply's markdown")
	}
}

func TestChatSelectionMenu(t *testing.T) {
	cv, _ := selectionChat(t, selItems())
	c := fyne.CurrentApp().Driver().CanvasForObject(cv)
	cv.content.TappedSecondary(&fyne.PointEvent{Position: at(t, cv, "a", 0, 3), AbsolutePosition: fyne.NewPos(100, 100)})
	if len(c.Overlays().List()) != 1 {
		t.Fatal("no menu on a right click")
	}
	markup := test.RenderToMarkup(c)
	for _, want := range []string{"Copy", "Copy as Markdown", "Select All in This Message"} {
		if !strings.Contains(markup, ">"+want+"<") {
			t.Fatalf("the menu has no %q", want)
		}
	}
}
