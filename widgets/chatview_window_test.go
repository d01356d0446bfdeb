package widgets

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/model"
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

// longAnswer is a markdown reply of n words shaped like a model's long
// answer: headed sections of paragraphs, with lists and code blocks.
func longAnswer(n int) string {
	r := rand.New(rand.NewSource(9))
	vocab := strings.Fields("the handler request response buffer connection pool close defer error value " +
		"server client timeout retry context cancel stream token model reply test fixture layout width " +
		"line paragraph window scroll render texture object frame cost session entry")
	var b strings.Builder
	words := 0
	word := func() string { return vocab[r.Intn(len(vocab))] }
	for section := 1; words < n; section++ {
		fmt.Fprintf(&b, "## Section %d\n\n", section)
		for p := 0; p < 6 && words < n; p++ {
			k := 40 + r.Intn(80)
			for i := 0; i < k; i++ {
				if i > 0 {
					b.WriteByte(' ')
				}
				w := word()
				switch r.Intn(40) {
				case 0:
					w = "**" + w + "**"
				case 1:
					w = "`" + w + "()`"
				}
				b.WriteString(w)
			}
			words += k
			b.WriteString(".\n\n")
			if p == 2 {
				for i := 0; i < 5; i++ {
					fmt.Fprintf(&b, "- %s %s %s\n", word(), word(), word())
					words += 3
				}
				b.WriteString("\n")
			}
			if p == 4 && section%2 == 0 {
				b.WriteString("```go\n")
				for i := 0; i < 10; i++ {
					fmt.Fprintf(&b, "\t%s := %s(%s)\n", word(), word(), word())
					words += 3
				}
				b.WriteString("```\n\n")
			}
		}
	}
	return b.String()
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
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(longReplyItems(longAnswer(50000)))
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
	newMDTestApp(t)
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
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	reply := longAnswer(8000)
	items := longReplyItems("")
	items[1].Streaming = true
	cuts := streamCuts(reply, 400, 3)
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
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	reply := longAnswer(6000)
	items := longReplyItems(reply[:len(reply)/2])
	items[1].Streaming = true
	cv.SetItems(items)
	scrollTo(cv, 300)
	before := cv.scroll.Offset.Y
	for _, c := range streamCuts(reply[len(reply)/2:], 50, 4) {
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
	newMDTestApp(t)
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
		want += rowHeight(v.heightAt(width))
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
func replyFlow(t *testing.T, cv *ChatView) *textFlow {
	t.Helper()
	r := cv.views.get("a").view.(*replyView)
	md := r.parts[0].obj.(*MarkdownView)
	f, ok := md.blocks[0].obj.(*textFlow)
	if !ok {
		t.Fatalf("the reply's first block is %T", md.blocks[0].obj)
	}
	return f
}

func TestChatViewHugeWordIsCollapsed(t *testing.T) {
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(hugeWordItems(8 << 20))
	f := replyFlow(t, cv)
	if got := len(f.layout.lines); got != collapseLines || !f.more {
		t.Fatalf("an 8 MiB word was laid out to %d lines (more: %v); want %d and a Show all", got, f.more, collapseLines)
	}
	checkBounded(t, cv, "collapsed, end")
	if !strings.Contains(test.RenderObjectToMarkup(cv), "Show all (8.3 MB more)") {
		t.Fatal("no Show all under the collapsed word")
	}
	// Wrapped by characters: every line but the last is full.
	for _, l := range f.layout.lines[:10] {
		p := f.layout.pieces[l.p0]
		if n := p.end - p.start; n < 50 {
			t.Fatalf("a wrapped line holds %d characters", n)
		}
	}
	scrollTo(cv, 0)
	checkBounded(t, cv, "collapsed, top")
}

func TestChatViewShowAllLaysOutInSteps(t *testing.T) {
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(hugeWordItems(2 << 20))
	f := replyFlow(t, cv)
	test.Tap(f.showAllButton())
	if got := len(f.layout.lines); got > layoutStepLines || !f.pending {
		t.Fatalf("Show all laid out %d lines at once (pending %v); want one step of at most %d", got, f.pending, layoutStepLines)
	}
	steps := 0
	var sizes []int
	for len(laterQueue) > 0 {
		before := len(f.layout.lines)
		q := laterQueue
		laterQueue = nil
		for _, step := range q {
			step()
		}
		steps++
		sizes = append(sizes, len(f.layout.lines)-before)
		checkBounded(t, cv, fmt.Sprintf("step %d", steps))
	}
	for _, n := range sizes {
		if n > layoutStepLines {
			t.Fatalf("a step laid out %d lines", n)
		}
	}
	if f.pending || f.more || steps < 3 {
		t.Fatalf("after %d steps: pending %v, more %v", steps, f.pending, f.more)
	}
	perLine := f.layout.pieces[f.layout.lines[0].p0].end
	if want := (2<<20)/10*10/perLine + 1; len(f.layout.lines) < want-1 {
		t.Fatalf("%d lines for the whole word; want about %d", len(f.layout.lines), want)
	}
	if got, want := cv.rows.h[1], rowHeight(cv.views.get("a").view.heightAt(cv.scroll.Size().Width)); got != want {
		t.Fatalf("the reply's row is %v high after the steps, its view %v", got, want)
	}
	scrollTo(cv, float32(cv.rows.total()/2))
	checkBounded(t, cv, "shown whole, middle")
}

func TestChatViewMegabyteLineOfMixedText(t *testing.T) {
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "word%d, `code%d` **bold** (paren) %s ", i, i, strings.Repeat("x", i%90))
	}
	cv.SetItems(longReplyItems(b.String()))
	f := replyFlow(t, cv)
	if got := len(f.layout.lines); got != collapseLines || !f.more {
		t.Fatalf("a 1 MiB line was laid out to %d lines (more: %v); want %d and a Show all", got, f.more, collapseLines)
	}
	checkBounded(t, cv, "end")
	scrollTo(cv, 0)
	checkBounded(t, cv, "top")
}

// A code block of thousands of lines: collapsed, and drawn by lines.
func TestChatViewLongCodeBlockDrawsOnlyTheScreen(t *testing.T) {
	newMDTestApp(t)
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
	code := r.parts[0].obj.(*MarkdownView).blocks[0].obj.(*codeBlock)
	if len(code.lay.lines) != collapseLines || !code.more {
		t.Fatalf("%d lines laid out (more %v)", len(code.lay.lines), code.more)
	}
	checkBounded(t, cv, "collapsed")
	test.Tap(code.showAllButton())
	runLater()
	if len(code.lay.lines) != 3000 || code.more || code.pending {
		t.Fatalf("shown whole: %d lines (more %v, pending %v)", len(code.lay.lines), code.more, code.pending)
	}
	for _, off := range []float32{0, float32(cv.rows.total() / 2), float32(cv.rows.total())} {
		scrollTo(cv, off)
		checkBounded(t, cv, fmt.Sprintf("whole, at %v", off))
	}
}

// The markdown of a tail of megabytes is parsed off the UI goroutine: the
// view hands it to inBackground, and shows the text before it meanwhile.
func TestMarkdownHugeTailParsedInBackground(t *testing.T) {
	newMDTestApp(t)
	var queued []func()
	old := inBackground
	inBackground = func(work, done func()) {
		queued = append(queued, func() {
			work()
			done()
		})
	}
	defer func() { inBackground = old }()
	m := mdLaidOut(NewMarkdownView())
	m.SetMarkdown("# Title\n\nFirst paragraph.\n\n")
	if len(queued) != 0 {
		t.Fatal("a short text went to the background")
	}
	huge := m.Markdown() + strings.Repeat("abcdefghij", 100<<10)
	m.SetMarkdown(huge)
	m.SetMarkdown(huge + " and more")
	if len(queued) != 1 || m.Markdown() == huge || !m.parsing {
		t.Fatalf("%d background parses queued, parsing %v", len(queued), m.parsing)
	}
	if len(m.blocks) != 2 {
		t.Fatalf("%d blocks shown while the tail is parsed; want the two before it", len(m.blocks))
	}
	for len(queued) > 0 {
		q := queued[0]
		queued = queued[1:]
		q()
	}
	if got := m.Markdown(); got != huge+" and more" {
		t.Fatalf("shows %d bytes, want the last text set (%d)", len(got), len(huge)+9)
	}
	if len(m.blocks) != 3 {
		t.Fatalf("%d blocks after the parse", len(m.blocks))
	}
}
