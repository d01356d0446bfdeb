package chat

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
	"knightcode.ai/desktop/widgets/widgettest"
)

// treeStats counts what the canvas tree holds under o, placed at y on
// screen: all objects, and the canvas.Text objects among them (each holds
// a texture once painted); far counts texts that lie outside rows
// [top, bottom) of the screen.
func treeStats(o fyne.CanvasObject, y, top, bottom float32) (objects, texts, far int) {
	objects = 1
	if _, ok := o.(*canvas.Text); ok {
		texts = 1
		if y >= bottom || y+o.Size().Height <= top {
			far = 1
		}
	}
	var children []fyne.CanvasObject
	switch t := o.(type) {
	case fyne.Widget:
		children = test.WidgetRenderer(t).Objects()
	case *fyne.Container:
		children = t.Objects
	}
	for _, c := range children {
		if !c.Visible() {
			continue
		}
		n, k, f := treeStats(c, y+c.Position().Y, top, bottom)
		objects += n
		texts += k
		far += f
	}
	return objects, texts, far
}

// visibleLines is how many lines of body text fit in the chat's viewport.
func visibleLines(cv *ChatView) int {
	line := fyne.MeasureText("M", cv.Theme().Size(theme.SizeNameText), fyne.TextStyle{}).Height
	return int(math.Ceil(float64(cv.scroll.Size().Height / line)))
}

// scrollTo moves the transcript to offset as a user would.
func scrollTo(cv *ChatView, offset float32) {
	userScroll(cv, offset-cv.scroll.Offset.Y)
}

func longReplyItems(reply string) []model.ChatItem {
	return []model.ChatItem{
		{ID: "u", Kind: model.ChatUser, Revision: 1, Text: "Explain everything."},
		{ID: "a", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker", Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: reply}}},
	}
}

// checkBounded fails if the chat's tree holds a text object outside the
// screen and its margin, or more than a few text objects per line that
// fits on screen (a highlighted line of code has one per token).
func checkBounded(t *testing.T, cv *ChatView, where string) {
	t.Helper()
	h := cv.scroll.Size().Height
	objects, texts, far := treeStats(cv, 0, -windowMargin, h+windowMargin)
	if far > 0 {
		t.Fatalf("%s: %d of %d text objects in the tree lie off screen", where, far, texts)
	}
	if limit := 8 * visibleLines(cv); texts > limit {
		t.Fatalf("%s: %d text objects (%d objects) in the tree; want at most %d for %d visible lines",
			where, texts, objects, limit, visibleLines(cv))
	}
	if texts == 0 {
		t.Fatalf("%s: nothing drawn", where)
	}
	t.Logf("%s: %d objects, %d texts (visible lines %d)", where, objects, texts, visibleLines(cv))
}

func TestChatViewLongReplyDrawsOnlyTheScreen(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(longReplyItems(widgettest.LongAnswer(50000)))
	total := float32(cv.rows.total())
	if total < 100*cv.scroll.Size().Height {
		t.Fatalf("the reply is only %v high", total)
	}
	checkBounded(t, cv, "end")
	scrollTo(cv, total/2)
	checkBounded(t, cv, "middle")
	scrollTo(cv, 0)
	checkBounded(t, cv, "top")
	if cv.scroll.Offset.Y != 0 || cv.follow {
		t.Fatalf("at the top: offset %v, following %v", cv.scroll.Offset.Y, cv.follow)
	}
}

func TestChatViewLongTranscriptDrawsOnlyTheScreen(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(manyItems(12000, 4096))
	checkBounded(t, cv, "end")
	scrollTo(cv, float32(cv.rows.total()/2))
	checkBounded(t, cv, "middle")
	scrollTo(cv, 0)
	checkBounded(t, cv, "top")
	if cv.shownView(0) == nil {
		t.Fatal("the first entry is not on screen at the top")
	}
	if cv.viewsBuilt > 40 {
		t.Fatalf("%d views built for three screens", cv.viewsBuilt)
	}
}

func TestChatViewStreamingReplyDrawsOnlyTheScreen(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	reply := widgettest.LongAnswer(8000)
	items := longReplyItems("")
	items[1].Streaming = true
	cuts := widgettest.StreamCuts(reply, 400, 3)
	for i, c := range cuts {
		items[1].Revision++
		items[1].Blocks[0].Text = reply[:c]
		cv.SetItems(items)
		if i%50 == 0 || i == len(cuts)-1 {
			checkBounded(t, cv, fmt.Sprintf("update %d", i))
			if !cv.atBottom() {
				t.Fatalf("update %d: not following the end", i)
			}
		}
	}
}

// A long reply streaming while the user reads above it must not move what
// the user reads.
func TestChatViewStreamingKeepsTheReaderInPlace(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	reply := widgettest.LongAnswer(6000)
	items := longReplyItems(reply[:len(reply)/2])
	items[1].Streaming = true
	cv.SetItems(items)
	scrollTo(cv, 300)
	before := cv.scroll.Offset.Y
	for _, c := range widgettest.StreamCuts(reply[len(reply)/2:], 50, 4) {
		items[1].Revision++
		items[1].Blocks[0].Text = reply[:len(reply)/2+c]
		cv.SetItems(items)
		if cv.scroll.Offset.Y != before {
			t.Fatalf("the text moved from %v to %v under the reader", before, cv.scroll.Offset.Y)
		}
	}
}

// Once every entry has been on screen, the scroll extent is the sum of
// the entries' real heights: nothing is guessed any more.
func TestChatViewScrollExtentIsExact(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	items := manyItems(60, 1500)
	cv.SetItems(items)
	for off := float32(0); off < float32(cv.rows.total()); off += 200 {
		scrollTo(cv, off)
	}
	scrollTo(cv, float32(cv.rows.total()))
	width := cv.scroll.Size().Width
	gap := cv.entryGap()
	want := float32(0)
	for i := range items {
		v := newItemView(&items[i], &chatEnv{expanded: map[string]bool{}, relayout: func(string) {}})
		v.update(&items[i])
		want += rowHeight(v.HeightAt(width))
		if i > 0 {
			want += gap
		}
	}
	if got := cv.content.MinSize().Height; got != want {
		t.Fatalf("the content is %v high; the entries add up to %v", got, want)
	}
	if got := cv.content.Size().Height; got != want {
		t.Fatalf("the scrolled content is sized %v, want %v", got, want)
	}
}

// hugeWordItems is a reply of one word of n bytes.
func hugeWordItems(n int) []model.ChatItem {
	return longReplyItems(strings.Repeat("abcdefghij", n/10))
}

// replyFlow is the text flow of the reply's first markdown block.
func replyFlow(t *testing.T, cv *ChatView) *markdown.TextFlow {
	t.Helper()
	r := cv.views.get("a").view.(*replyView)
	md := r.parts[0].obj.(*markdown.MarkdownView)
	f, ok := md.Blocks[0].Obj.(*markdown.TextFlow)
	if !ok {
		t.Fatalf("the reply's first block is %T", md.Blocks[0].Obj)
	}
	return f
}

func TestChatViewHugeWordIsCollapsed(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(hugeWordItems(8 << 20))
	f := replyFlow(t, cv)
	if got := len(f.Layout.Lines); got != markdown.CollapseLines || !f.More {
		t.Fatalf("an 8 MiB word was laid out to %d lines (more: %v); want %d and a Show all", got, f.More, markdown.CollapseLines)
	}
	checkBounded(t, cv, "collapsed, end")
	if !strings.Contains(test.RenderObjectToMarkup(cv), "Show all (8.3 MB more)") {
		t.Fatal("no Show all under the collapsed word")
	}
	// Wrapped by characters: every line but the last is full.
	for _, l := range f.Layout.Lines[:10] {
		p := f.Layout.Pieces[l.P0]
		if n := p.End - p.Start; n < 50 {
			t.Fatalf("a wrapped line holds %d characters", n)
		}
	}
	scrollTo(cv, 0)
	checkBounded(t, cv, "collapsed, top")
}

func TestChatViewShowAllLaysOutInSteps(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(hugeWordItems(2 << 20))
	f := replyFlow(t, cv)
	test.Tap(f.ShowAllButton())
	if got := len(f.Layout.Lines); got > markdown.LayoutStepLines || !f.Pending {
		t.Fatalf("Show all laid out %d lines at once (pending %v); want one step of at most %d", got, f.Pending, markdown.LayoutStepLines)
	}
	steps := 0
	var sizes []int
	for q := widgettest.TakeLater(); len(q) > 0; q = widgettest.TakeLater() {
		before := len(f.Layout.Lines)
		for _, step := range q {
			step()
		}
		steps++
		sizes = append(sizes, len(f.Layout.Lines)-before)
		checkBounded(t, cv, fmt.Sprintf("step %d", steps))
	}
	for _, n := range sizes {
		if n > markdown.LayoutStepLines {
			t.Fatalf("a step laid out %d lines", n)
		}
	}
	if f.Pending || f.More || steps < 3 {
		t.Fatalf("after %d steps: pending %v, more %v", steps, f.Pending, f.More)
	}
	perLine := f.Layout.Pieces[f.Layout.Lines[0].P0].End
	if want := (2<<20)/10*10/perLine + 1; len(f.Layout.Lines) < want-1 {
		t.Fatalf("%d lines for the whole word; want about %d", len(f.Layout.Lines), want)
	}
	if got, want := cv.rows.h[1], rowHeight(cv.views.get("a").view.HeightAt(cv.scroll.Size().Width)); got != want {
		t.Fatalf("the reply's row is %v high after the steps, its view %v", got, want)
	}
	scrollTo(cv, float32(cv.rows.total()/2))
	checkBounded(t, cv, "shown whole, middle")
}

func TestChatViewMegabyteLineOfMixedText(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "word%d, `code%d` **bold** (paren) %s ", i, i, strings.Repeat("x", i%90))
	}
	cv.SetItems(longReplyItems(b.String()))
	f := replyFlow(t, cv)
	if got := len(f.Layout.Lines); got != markdown.CollapseLines || !f.More {
		t.Fatalf("a 1 MiB line was laid out to %d lines (more: %v); want %d and a Show all", got, f.More, markdown.CollapseLines)
	}
	checkBounded(t, cv, "end")
	scrollTo(cv, 0)
	checkBounded(t, cv, "top")
}

// A code block of thousands of lines: collapsed, and drawn by lines.
func TestChatViewLongCodeBlockDrawsOnlyTheScreen(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	var b strings.Builder
	b.WriteString("```\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "line %d of a long listing\n", i)
	}
	b.WriteString("```\n")
	cv.SetItems(longReplyItems(b.String()))
	r := cv.views.get("a").view.(*replyView)
	code := r.parts[0].obj.(*markdown.MarkdownView).Blocks[0].Obj.(*markdown.CodeBlock)
	if len(code.Lay.Lines) != markdown.CollapseLines || !code.More {
		t.Fatalf("%d lines laid out (more %v)", len(code.Lay.Lines), code.More)
	}
	checkBounded(t, cv, "collapsed")
	test.Tap(code.ShowAllButton())
	widgettest.RunLater()
	if len(code.Lay.Lines) != 3000 || code.More || code.Pending {
		t.Fatalf("shown whole: %d lines (more %v, pending %v)", len(code.Lay.Lines), code.More, code.Pending)
	}
	for _, off := range []float32{0, float32(cv.rows.total() / 2), float32(cv.rows.total())} {
		scrollTo(cv, off)
		checkBounded(t, cv, fmt.Sprintf("whole, at %v", off))
	}
}

// The markdown of a tail of megabytes is parsed off the UI goroutine: the
// view hands it to inBackground, and shows the text before it meanwhile.
func TestMarkdownHugeTailParsedInBackground(t *testing.T) {
	widgettest.NewTestApp(t)
	var queued []func()
	d := widgettest.Driver()
	d.InBackground = func(work, done func()) {
		queued = append(queued, func() {
			work()
			done()
		})
	}
	defer kit.SetDriver(d)()
	m := laidOut(markdown.NewMarkdownView())
	m.SetMarkdown("# Title\n\nFirst paragraph.\n\n")
	if len(queued) != 0 {
		t.Fatal("a short text went to the background")
	}
	huge := m.Markdown() + strings.Repeat("abcdefghij", 100<<10)
	m.SetMarkdown(huge)
	m.SetMarkdown(huge + " and more")
	if len(queued) != 1 || m.Markdown() == huge || !m.Parsing {
		t.Fatalf("%d background parses queued, parsing %v", len(queued), m.Parsing)
	}
	if len(m.Blocks) != 2 {
		t.Fatalf("%d blocks shown while the tail is parsed; want the two before it", len(m.Blocks))
	}
	for len(queued) > 0 {
		q := queued[0]
		queued = queued[1:]
		q()
	}
	if got := m.Markdown(); got != huge+" and more" {
		t.Fatalf("shows %d bytes, want the last text set (%d)", len(got), len(huge)+9)
	}
	if len(m.Blocks) != 3 {
		t.Fatalf("%d blocks after the parse", len(m.Blocks))
	}
}

// laidOut sizes m to 600 wide (markdown tests' width) and the height it needs there.
func laidOut(m *markdown.MarkdownView) *markdown.MarkdownView {
	m.Resize(fyne.NewSize(600, 1))
	m.Resize(fyne.NewSize(600, m.MinSize().Height))
	return m
}
