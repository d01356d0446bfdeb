package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/widgettest"
)

func TestChatViewTranscript(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(760, 2300))
	cv.SetItems(sampleTranscript())
	test.AssertRendersToMarkup(t, "chatview_transcript.xml", w.Canvas())
}

// streamedReply is the states a reply goes through while it streams: its
// thinking grows, a tool call runs, then its markdown arrives in chunks.
func streamedReply(final string) []model.ChatItem {
	var states []model.ChatItem
	rev := uint64(1)
	add := func(streaming bool, blocks ...model.ChatBlock) {
		rev++
		states = append(states, model.ChatItem{ID: "a", Kind: model.ChatAssistant, Revision: rev, Meta: "Fake Thinker · 12:04",
			Streaming: streaming, Blocks: blocks})
	}
	thinking := "Reading the handler.\nIt never closes the body."
	for i := 1; i <= len(thinking); i += 7 {
		add(true, model.ChatBlock{Kind: model.BlockThinking, Text: thinking[:i]})
	}
	think := model.ChatBlock{Kind: model.BlockThinking, Text: thinking}
	call := model.ChatBlock{Kind: model.BlockToolCall, ToolCallID: "t1", ToolName: "read", ArgsSummary: "main.go"}
	for _, s := range []model.ToolStatus{model.ToolPending, model.ToolRunning, model.ToolDone} {
		call.ToolStatus = s
		add(true, think, call)
	}
	for i := 1; i < len(final); i += 1 + i%13 {
		add(true, think, call, model.ChatBlock{Kind: model.BlockText, Text: final[:i]})
	}
	add(false, think, call, model.ChatBlock{Kind: model.BlockText, Text: final})
	return states
}

// streamAndLoad shows a reply once as it streams and once loaded whole,
// in windows of the given size, and returns both views and windows.
func streamAndLoad(t *testing.T, size fyne.Size) (streamed, complete *ChatView, ws, wc fyne.Window) {
	user := model.ChatItem{ID: "u", Kind: model.ChatUser, Revision: 1, Text: "Why does it leak?"}
	states := streamedReply(widgettest.MarkdownDocument)

	streamed = NewChatView()
	ws = test.NewTempWindow(t, streamed)
	ws.Resize(size)
	items := []model.ChatItem{user, {}}
	for _, s := range states {
		items[1] = s // the caller reuses its slice between calls
		streamed.SetItems(items)
	}

	complete = NewChatView()
	wc = test.NewTempWindow(t, complete)
	wc.Resize(size)
	complete.SetItems([]model.ChatItem{user, states[len(states)-1]})
	return streamed, complete, ws, wc
}

func TestChatViewStreamedMatchesComplete(t *testing.T) {
	widgettest.NewTestApp(t)
	_, _, ws, wc := streamAndLoad(t, fyne.NewSize(700, 1600))
	want, got := test.RenderToMarkup(wc.Canvas()), test.RenderToMarkup(ws.Canvas())
	if want != got {
		t.Fatalf("streamed transcript differs from the complete one\n%s", widgettest.MarkupDiff(want, got))
	}
	if !strings.Contains(got, "Last paragraph.") {
		t.Fatal("the reply is not shown to its end")
	}
}

// In a window shorter than the reply both views show its end. Rows above
// differ only in whether they were ever measured, so the reply itself is
// compared, and where it sits on screen.
func TestChatViewStreamedMatchesCompleteScrolled(t *testing.T) {
	widgettest.NewTestApp(t)
	streamed, complete, _, _ := streamAndLoad(t, fyne.NewSize(700, 500))
	if !streamed.atBottom() || !complete.atBottom() {
		t.Fatal("both views should show the end of the reply")
	}
	rs, rc := streamed.shownView(1), complete.shownView(1)
	if rs == nil || rc == nil {
		t.Fatal("reply row not on screen")
	}
	want, got := test.RenderObjectToMarkup(rc), test.RenderObjectToMarkup(rs)
	if want != got {
		t.Fatalf("streamed reply differs from the complete one\n%s", widgettest.MarkupDiff(want, got))
	}
	if bs, bc := rowBottomOnScreen(streamed, 1), rowBottomOnScreen(complete, 1); bs != bc {
		t.Fatalf("reply ends at %v on screen, want %v", bs, bc)
	}
}

func TestChatViewStaysPutWhenScrolledUp(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 500))
	items := manyItems(40, 600)
	cv.SetItems(items)
	bottom := cv.scroll.Offset.Y
	if bottom <= 0 {
		t.Fatal("a long transcript should open at its end")
	}
	userScroll(cv, -bottom/2)
	reading := cv.scroll.Offset.Y
	top := cv.shown[0]
	onScreen := float32(cv.rows.topOf(top.index)) - reading
	items = append(items, model.ChatItem{ID: "new", Kind: model.ChatAssistant, Revision: 1, Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: "more"}}})
	cv.SetItems(items)
	if got := float32(cv.rows.topOf(top.index)) - cv.scroll.Offset.Y; got != onScreen {
		t.Fatalf("entry %d moved from %v to %v on screen while the user was reading", top.index, onScreen, got)
	}
	cv.ScrollToBottom()
	items[len(items)-1].Revision++
	items[len(items)-1].Blocks = []model.ChatBlock{{Kind: model.BlockText, Text: strings.Repeat("much more text ", 200)}}
	cv.SetItems(items)
	if !cv.atBottom() {
		t.Fatal("view did not follow new content after ScrollToBottom")
	}
}

func TestChatViewRedrawsOnlyChangedItems(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 2000))
	items := sampleTranscript()
	cv.SetItems(items)
	built := cv.viewsBuilt
	views := map[string]itemView{}
	cv.views.each(func(c *cachedView) { views[c.id] = c.view })

	items[len(items)-1].Revision++
	items[len(items)-1].Blocks[1].Text += " and the test"
	cv.SetItems(items)
	if cv.viewsBuilt != built {
		t.Fatalf("%d views built for one changed entry", cv.viewsBuilt-built)
	}
	cv.views.each(func(c *cachedView) {
		if views[c.id] != c.view {
			t.Errorf("view of %s was replaced", c.id)
		}
	})
}

func TestChatViewToolChipTap(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 2000))
	cv.SetItems(sampleTranscript())
	var got string
	cv.OnToolChipTapped = func(id string) { got = id }
	reply := cv.views.get("a1").view.(*replyView)
	chips := reply.parts[1].obj.(*chipRow)
	test.Tap(chips.chips[1])
	if got != "t2" {
		t.Fatalf("tapped chip reported %q, want t2", got)
	}
}

func TestChatViewThinkingExpands(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 2000))
	cv.SetItems(sampleTranscript())
	reply := cv.views.get("a1").view.(*replyView)
	th := reply.parts[0].obj.(*thinkingView)
	before := cv.rows.h[1]
	test.Tap(th)
	if !th.isOpen() || cv.rows.h[1] <= before {
		t.Fatalf("thinking did not open: open=%v height %v -> %v", th.isOpen(), before, cv.rows.h[1])
	}
	if !strings.Contains(test.RenderToMarkup(w.Canvas()), "Let me look at the handler first.") {
		t.Fatal("open thinking block does not show its text")
	}
}

func TestChatViewCopyCopiesMarkdown(t *testing.T) {
	a := widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 2000))
	cv.SetItems(sampleTranscript())
	test.Tap(cv.views.get("a1").view.(*replyView).copy)
	if got := a.Clipboard().Content(); got != sampleReplyMarkdown {
		t.Fatalf("copied %q", got)
	}
}

// rowBottomOnScreen is where entry i ends, measured from the top of the
// viewport.
func rowBottomOnScreen(cv *ChatView, i int) float32 {
	return float32(cv.rows.topOf(i)) + cv.rows.h[i] - cv.scroll.Offset.Y
}

// userScroll moves the transcript as the mouse wheel does; negative dy
// moves towards the start.
func userScroll(cv *ChatView, dy float32) {
	cv.ScrollBy(dy)
}

// manyItems is a transcript of n entries alternating prompts and replies
// of about size bytes of markdown.
func manyItems(n, size int) []model.ChatItem {
	reply := widgettest.LongMarkdownReply(size)
	items := make([]model.ChatItem, n)
	for i := range items {
		if i%2 == 0 {
			items[i] = model.ChatItem{ID: fmt.Sprint("u", i), Kind: model.ChatUser, Revision: 1, Text: fmt.Sprintf("Question %d: what next?", i)}
			continue
		}
		items[i] = model.ChatItem{ID: fmt.Sprint("a", i), Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker",
			Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: reply}}}
	}
	return items
}

func TestChatViewVirtualises(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(manyItems(12000, 4096))

	if cv.viewsBound > 8 || cv.viewsBuilt > 8 {
		t.Fatalf("12,000 entries built %d views, %d put on screen; want a screenful", cv.viewsBuilt, cv.viewsBound)
	}
	if cv.shownView(11999) == nil || !cv.atBottom() {
		t.Fatal("a loaded session should show its end")
	}
	if end := rowBottomOnScreen(cv, 11999); end != cv.scroll.Size().Height {
		t.Fatalf("last entry ends at %v, viewport is %v high", end, cv.scroll.Size().Height)
	}
	t.Logf("views built %d, put on screen %d", cv.viewsBuilt, cv.viewsBound)
}

func BenchmarkChatViewSetItems12k(b *testing.B) {
	widgettest.NewTestApp(b)
	items := manyItems(12000, 4096)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cv := NewChatView()
		w := test.NewWindow(cv)
		w.Resize(fyne.NewSize(800, 600))
		cv.SetItems(items)
		b.StopTimer()
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/first-SetItems")
}

// BenchmarkChatViewStreamingIn12k is one frame of a reply streaming at the
// end of a 12,000-entry session: the per-frame cost the UI pays.
func BenchmarkChatViewStreamingIn12k(b *testing.B) {
	widgettest.NewTestApp(b)
	items := manyItems(12000, 4096)
	cv := NewChatView()
	w := test.NewWindow(cv)
	defer w.Close()
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(items)
	reply := widgettest.LongMarkdownReply(64 * 1024)
	cuts := widgettest.StreamCuts(reply, 6000, 2)
	last := &items[len(items)-1]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		last.Revision++
		last.Blocks = []model.ChatBlock{{Kind: model.BlockText, Text: reply[:cuts[i%len(cuts)]]}}
		cv.SetItems(items)
	}
}

func TestChatViewItemsBeforeShown(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	cv.SetItems(manyItems(200, 2000))
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 500))
	if cv.shownView(199) == nil || !cv.atBottom() {
		t.Fatal("a transcript set before the view was shown should open at its end")
	}
	if end := rowBottomOnScreen(cv, 199); end != cv.scroll.Size().Height {
		t.Fatalf("last entry ends at %v, viewport is %v high", end, cv.scroll.Size().Height)
	}
	cv.SetItems(nil)
	if len(cv.shown) != 0 || strings.Contains(test.RenderToMarkup(w.Canvas()), "replyView") {
		t.Fatal("clearing the transcript left rows on screen")
	}
}

// A long session can be shown from its end first and whole a moment later:
// the entries before are put in front, and the screen does not move.
func TestChatViewOlderEntriesPrepended(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 500))
	all := manyItems(3000, 800)
	cv.SetItems(all[len(all)-20:])
	built := cv.viewsBuilt
	bottom := rowBottomOnScreen(cv, 19)
	cv.SetItems(all)
	if cv.shownView(len(all)-1) == nil || !cv.atBottom() {
		t.Fatal("the end is no longer on screen")
	}
	if got := rowBottomOnScreen(cv, len(all)-1); got != bottom {
		t.Fatalf("the last entry moved on screen from %v to %v", bottom, got)
	}
	if cv.viewsBuilt != built {
		t.Fatalf("%d views built again for entries already shown", cv.viewsBuilt-built)
	}

	// Scrolled up, what the user reads stays where it is.
	cv.SetItems(all[len(all)-40:])
	scrollTo(cv, 200)
	top := cv.shown[0]
	id := cv.items[top.index].ID
	onScreen := float32(cv.rows.topOf(top.index)) - cv.scroll.Offset.Y
	cv.SetItems(all)
	i := cv.ids[id]
	if got := float32(cv.rows.topOf(i)) - cv.scroll.Offset.Y; got != onScreen {
		t.Fatalf("entry %s moved on screen from %v to %v", id, onScreen, got)
	}
}

func TestChatViewCutOffReplySaysSo(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 600))
	reply := model.ChatItem{ID: "a", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker",
		Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: "The first half of a long"}}, StopReason: "length"}
	cv.SetItems([]model.ChatItem{reply})
	if !strings.Contains(test.RenderToMarkup(w.Canvas()), "output limit") {
		t.Fatal("a reply cut off at the output limit does not say so")
	}
	// An ordinary end has no footer.
	reply.Revision, reply.StopReason = 2, ""
	cv.SetItems([]model.ChatItem{reply})
	if strings.Contains(test.RenderToMarkup(w.Canvas()), "output limit") {
		t.Fatal("the cut-off note stays after the reply changed")
	}
}

func TestBashStatusSaysHowLong(t *testing.T) {
	start := time.Unix(1000, 0)
	code := 0
	text := func(it model.ChatItem, now time.Time) string {
		var parts []string
		for _, sp := range bashStatus(&it, now) {
			parts = append(parts, sp.Text)
		}
		return strings.Join(parts, "")
	}
	running := model.ChatItem{Kind: model.ChatBash, Streaming: true, Started: start}
	if got := text(running, start.Add(3200*time.Millisecond)); got != "running…  ·  3s" {
		t.Fatalf("running: %q", got)
	}
	done := model.ChatItem{Kind: model.ChatBash, ExitCode: &code, Started: start, Ended: start.Add(1500 * time.Millisecond)}
	if got := text(done, start.Add(time.Hour)); got != "exit 0  ·  1.5s" {
		t.Fatalf("done: %q", got)
	}
	loaded := model.ChatItem{Kind: model.ChatBash, ExitCode: &code}
	if got := text(loaded, start); got != "exit 0" {
		t.Fatalf("from the session file: %q", got)
	}
}

// TestChatViewSummaryRendersMarkdown: an opened compaction summary shows
// its markdown rendered — a heading, a list — not "##" and "-".
func TestChatViewSummaryRendersMarkdown(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(760, 600))
	cv.SetItems([]model.ChatItem{{ID: "c", Kind: model.ChatCompaction, Revision: 1,
		Text: "## Goal\n\nFix the **leak**.\n\n- close the body\n- add a test"}})
	card := cv.views.get("c").view.(*summaryCard)
	card.toggle()
	widgettest.RunLater()
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok {
			texts = append(texts, tx.Text)
		}
		if wd, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(wd).Objects() {
				walk(c)
			}
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, k := range c.Objects {
				walk(k)
			}
		}
	}
	walk(card.body)
	got := strings.Join(texts, "|")
	if !strings.Contains(got, "Goal") || !strings.Contains(got, "leak") || strings.Contains(got, "##") || strings.Contains(got, "**") {
		t.Fatalf("the opened summary draws %q", got)
	}
}
