package tools

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

func showSidebar(t *testing.T, cards []model.ToolCard) (*ToolSidebar, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	s := newTestSidebar(cards)
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(420, 640))
	return s, w
}

func viewOf(t *testing.T, s *ToolSidebar, id string) *toolCardView {
	t.Helper()
	v := s.list.views[s.states[id]]
	if v == nil {
		t.Fatalf("card %s has no view", id)
	}
	return v
}

func numberedLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestToolSidebarStates(t *testing.T) {
	// Pending, running (with producer-cut output), failed and done cards:
	// the newest and running ones open, finished ones collapsed.
	s, w := showSidebar(t, sampleCards())
	test.AssertRendersToMarkup(t, "toolsidebar/states.xml", w.Canvas())

	// The user opens the done card; a chip selects the failed one.
	s.toggle(s.states["t1"])
	s.Select("t2")
	test.AssertRendersToMarkup(t, "toolsidebar/opened_selected.xml", w.Canvas())

	// Tapping a header closes the card again (t1 has no turn label: t2
	// above it is of the same turn).
	v := viewOf(t, s, "t1")
	test.TapAt(v, fyne.NewPos(40, v.m.pad+v.m.header/2))
	if s.states["t1"].expanded() {
		t.Fatal("tapping the header did not collapse the card")
	}
}

func TestToolSidebarEmpty(t *testing.T) {
	_, w := showSidebar(t, nil)
	test.AssertRendersToMarkup(t, "toolsidebar/empty.xml", w.Canvas())
}

func TestToolSidebarTruncatedShowsShowAll(t *testing.T) {
	long := model.ToolCard{ID: "big", Revision: 1, Name: "bash", ArgsSummary: "seq 2500", Status: model.ToolDone,
		Started: sidebarNow.Add(-2 * time.Second), Ended: sidebarNow, Output: numberedLines(1, 2500), Turn: 1}
	s, w := showSidebar(t, []model.ToolCard{long})
	test.AssertRendersToMarkup(t, "toolsidebar/truncated.xml", w.Canvas())

	var shown []string
	s.OnShowOutput = func(c model.ToolCard) { shown = append(shown, "output:"+c.ID) }
	s.OnShowAll = func(path string) { shown = append(shown, "file:"+path) }
	v := viewOf(t, s, "big")
	if v.notice.Text != "… 500 earlier lines not shown" {
		t.Fatalf("notice = %q", v.notice.Text)
	}
	test.Tap(v.showAll)
	long.Revision, long.FullOutputPath = 2, "/tmp/out.txt"
	s.SetCards([]model.ToolCard{long})
	test.Tap(v.showAll)
	if got := strings.Join(shown, " "); got != "output:big file:/tmp/out.txt" {
		t.Fatalf("show all calls = %q", got)
	}

	// A tool that shortened its own output and saved the rest: nothing is
	// cut here, yet the file has more.
	short := model.ToolCard{ID: "short", Revision: 1, Name: "bash", Status: model.ToolDone, Output: "last lines\n",
		FullOutputPath: "/tmp/full.log", Turn: 2}
	s.SetCards([]model.ToolCard{long, short})
	v = viewOf(t, s, "short")
	if v.notice.Hidden || v.showAll.Hidden || v.notice.Text != "… the tool saved its full output to a file" {
		t.Fatalf("file-only card: notice %q hidden=%v, show all hidden=%v", v.notice.Text, v.notice.Hidden, v.showAll.Hidden)
	}
}

func TestToolSidebarShowAllHiddenWithoutHandler(t *testing.T) {
	c := model.ToolCard{ID: "x", Revision: 1, Name: "bash", Status: model.ToolRunning, Output: "tail\n", OutputDropped: 4096}
	test.NewTempApp(t)
	s := NewToolSidebar()
	s.startTicker = func(func()) func() { return func() {} }
	s.SetCards([]model.ToolCard{c})
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(420, 300))
	v := viewOf(t, s, "x")
	if v.notice.Hidden || !v.showAll.Hidden {
		t.Fatalf("notice hidden=%v, show all hidden=%v: want the notice without a button", v.notice.Hidden, v.showAll.Hidden)
	}
}

// TestToolSidebarAppendsOutput proves cumulative output is drawn
// incrementally: each update sets the text of the new line only, where a
// rebuild would set every visible row.
func TestToolSidebarAppendsOutput(t *testing.T) {
	c := model.ToolCard{ID: "run", Revision: 1, Name: "bash", ArgsSummary: "make", Status: model.ToolRunning,
		Started: sidebarNow.Add(-time.Second), Output: numberedLines(1, 100), Turn: 1}
	s, _ := showSidebar(t, []model.ToolCard{c})
	v := viewOf(t, s, "run")
	mono := v.mono
	if len(mono.rows) != cardOutputRows {
		t.Fatalf("%d rows drawn, want the %d visible", len(mono.rows), cardOutputRows)
	}
	before := mono.textSets
	for i := 101; i <= 150; i++ {
		c.Revision++
		c.Output += fmt.Sprintf("line %d\n", i)
		s.SetCards([]model.ToolCard{c})
	}
	if got := mono.textSets - before; got != 50 {
		t.Fatalf("50 appended lines set %d row texts; want 50", got)
	}
	if last := mono.rows[len(mono.rows)-1].text.Text; !strings.Contains(strings.Join(rowTexts(mono), "|"), "line 150") {
		t.Fatalf("last line not shown; last row %q", last)
	}

	// Output that does not continue what was drawn replaces it.
	before = mono.textSets
	c.Revision++
	c.Output = "fresh\n" + numberedLines(1, 20)
	s.SetCards([]model.ToolCard{c})
	if got := mono.textSets - before; got != cardOutputRows {
		t.Fatalf("replacing set %d rows, want all %d visible", got, cardOutputRows)
	}
}

func rowTexts(v *MonoView) []string {
	var out []string
	for _, r := range v.rows {
		out = append(out, r.text.Text)
	}
	return out
}

func TestToolSidebarRedrawsOnlyChangedCards(t *testing.T) {
	cards := sampleCards()
	s, _ := showSidebar(t, cards)
	draws := map[string]int{}
	for st, v := range s.list.views {
		draws[st.card.ID] = v.draws
	}
	cards[2].Revision++ // t3, the running one
	cards[2].Output += "\nmore"
	s.SetCards(cards)
	s.SetCards(cards) // nothing changed: nothing to do
	for st, v := range s.list.views {
		want := draws[st.card.ID]
		if st.card.ID == "t3" {
			want++
		}
		if v.draws != want {
			t.Errorf("card %s drawn %d times, want %d", st.card.ID, v.draws, want)
		}
	}
}

func TestToolSidebarTickerRunsOnlyWhileRunning(t *testing.T) {
	test.NewTempApp(t)
	s := NewToolSidebar()
	now := sidebarNow
	s.now = func() time.Time { return now }
	var tick func()
	starts, stops := 0, 0
	s.startTicker = func(f func()) func() {
		starts++
		tick = f
		return func() { stops++ }
	}
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(420, 300))

	done := model.ToolCard{ID: "a", Revision: 1, Name: "read", Status: model.ToolDone, Started: now.Add(-time.Second), Ended: now}
	s.SetCards([]model.ToolCard{done})
	if starts != 0 {
		t.Fatal("ticker started with nothing running")
	}
	run := model.ToolCard{ID: "b", Revision: 1, Name: "bash", Status: model.ToolRunning, Started: now.Add(-3 * time.Second)}
	s.SetCards([]model.ToolCard{done, run})
	s.SetCards([]model.ToolCard{done, run})
	if starts != 1 || stops != 0 {
		t.Fatalf("starts=%d stops=%d while running", starts, stops)
	}
	v := viewOf(t, s, "b")
	if v.elapsed.Text != "3s" {
		t.Fatalf("elapsed = %q", v.elapsed.Text)
	}
	now = now.Add(62 * time.Second)
	tick()
	if v.elapsed.Text != "1m 05s" {
		t.Fatalf("elapsed after tick = %q", v.elapsed.Text)
	}
	run.Revision, run.Status, run.Ended = 2, model.ToolDone, now
	s.SetCards([]model.ToolCard{done, run})
	if stops != 1 {
		t.Fatalf("ticker not stopped when the last card finished (stops=%d)", stops)
	}
}

// Stop, as the tab calls it when it closes, ends a running card's ticker
// with the tab, and no later update starts another.
func TestToolSidebarStopEndsTheTickerForGood(t *testing.T) {
	test.NewTempApp(t)
	s := NewToolSidebar()
	starts, stops := 0, 0
	s.startTicker = func(func()) func() {
		starts++
		return func() { stops++ }
	}
	run := model.ToolCard{ID: "b", Revision: 1, Name: "bash", Status: model.ToolRunning, Started: sidebarNow}
	s.SetCards([]model.ToolCard{run})
	s.Stop()
	if starts != 1 || stops != 1 {
		t.Fatalf("after Stop with a card running: starts=%d stops=%d", starts, stops)
	}
	other := model.ToolCard{ID: "c", Revision: 1, Name: "bash", Status: model.ToolRunning, Started: sidebarNow}
	s.SetCards([]model.ToolCard{run, other})
	run.Revision, run.Status, run.Ended = 2, model.ToolDone, sidebarNow
	s.SetCards([]model.ToolCard{run})
	s.SetCards([]model.ToolCard{run, other})
	if starts != 1 {
		t.Fatalf("a ticker started after Stop (starts=%d)", starts)
	}
}

func TestToolSidebarVirtualizes(t *testing.T) {
	var cards []model.ToolCard
	for i := 0; i < 500; i++ {
		cards = append(cards, model.ToolCard{ID: fmt.Sprint(i), Revision: 1, Name: "read", ArgsSummary: fmt.Sprintf("file%d.go", i),
			Status: model.ToolDone, Started: sidebarNow.Add(-time.Second), Ended: sidebarNow, Output: "x\n", Turn: i/5 + 1})
	}
	s, _ := showSidebar(t, cards)
	if n := len(s.list.views) + len(s.list.spare); n > 30 {
		t.Fatalf("%d card views for 500 cards in a 640px list", n)
	}

	// A chip selects an old card: the list scrolls to it, opens and
	// highlights it.
	s.Select("10")
	st := s.states["10"]
	v := s.list.views[st]
	if v == nil || !st.selected || !st.expanded() {
		t.Fatalf("selected card: view=%v selected=%v expanded=%v", v != nil, st.selected, st.expanded())
	}
	off, h := s.list.scroll.Offset.Y, s.list.scroll.Size().Height
	if top := v.Position().Y; top < off || top+st.height > off+h {
		t.Fatalf("selected card at %v..%v, viewport %v..%v", top, top+st.height, off, off+h)
	}

	// A new card arriving while the user reads older ones does not move
	// what they read.
	before := v.Position().Y - s.list.scroll.Offset.Y
	cards = append(cards, model.ToolCard{ID: "new", Revision: 1, Name: "bash", Status: model.ToolRunning, Started: sidebarNow, Turn: 200})
	s.SetCards(cards)
	v = s.list.views[st]
	if v == nil || v.Position().Y-s.list.scroll.Offset.Y != before {
		t.Fatalf("card moved on screen when a new card arrived above it")
	}
}

func TestToolSidebarCopy(t *testing.T) {
	s, _ := showSidebar(t, sampleCards())
	var copied string
	s.OnCopy = func(c model.ToolCard) { copied = c.ID }
	test.Tap(viewOf(t, s, "t3").copyBtn)
	if copied != "t3" {
		t.Fatalf("copied %q", copied)
	}
	s.OnCopy = nil
	test.Tap(viewOf(t, s, "t2").copyBtn)
	if got := fyne.CurrentApp().Clipboard().Content(); !strings.HasPrefix(got, "--- FAIL") {
		t.Fatalf("clipboard = %q", got)
	}
}

func TestElapsedText(t *testing.T) {
	start := sidebarNow
	for _, tc := range []struct {
		ended time.Duration // 0: running
		now   time.Duration
		want  string
	}{
		{1200 * time.Millisecond, 0, "1.2s"},
		{0, 1700 * time.Millisecond, "1s"},
		{42 * time.Second, 0, "42s"},
		{0, 61 * time.Second, "1m 01s"},
		{0, 2*time.Hour + 3*time.Minute, "2h 03m"},
	} {
		c := model.ToolCard{Started: start}
		if tc.ended > 0 {
			c.Ended = start.Add(tc.ended)
		}
		if got := kit.ElapsedText(c, start.Add(tc.now)); got != tc.want {
			t.Errorf("elapsed(%v, %v) = %q, want %q", tc.ended, tc.now, got, tc.want)
		}
	}
	if kit.ElapsedText(model.ToolCard{}, start) != "" {
		t.Error("a card that has not started shows a time")
	}
}

// BenchmarkToolOutputAppend feeds a visible running card 5,000 cumulative
// updates of its growing output, one line each, as the app would at most
// once a frame, and reports the cost of one SetCards. Each update gets a
// freshly allocated string, as decoding the agent's JSON gives; copying it
// is not counted.
func BenchmarkToolOutputAppend(b *testing.B) {
	test.NewTempApp(b)
	s := NewToolSidebar()
	s.startTicker = func(func()) func() { return func() {} }
	w := test.NewTempWindow(b, s)
	w.Resize(fyne.NewSize(420, 640))
	const updates = 5000
	var lines []string
	for i := 0; i < updates; i++ {
		lines = append(lines, fmt.Sprintf("%5d compiling package knightcode.ai/desktop/widgets/file%d.go\n", i, i))
	}
	var spent time.Duration
	for n := 0; n < b.N; n++ {
		c := model.ToolCard{ID: fmt.Sprint("run", n), Name: "bash", Status: model.ToolRunning, Started: time.Now()}
		var out strings.Builder
		for i := 0; i < updates; i++ {
			out.WriteString(lines[i])
			c.Revision++
			c.Output = strings.Clone(out.String())
			t0 := time.Now()
			s.SetCards([]model.ToolCard{c})
			spent += time.Since(t0)
		}
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N*updates), "ns/update")
}

func TestToolSidebarClosedCardsKeepNoLines(t *testing.T) {
	s, _ := showSidebar(t, sampleCards())
	done := s.states["t1"] // finished and not the newest: closed
	if done.expanded() || done.doc.Lines.Count() != 0 {
		t.Fatalf("closed card holds %d lines", done.doc.Lines.Count())
	}
	s.toggle(done)
	if n := done.doc.Lines.Count(); n != 40 {
		t.Fatalf("opened card shows %d lines, want 40", n)
	}
	s.toggle(done)
	if done.doc.Lines.Count() != 0 {
		t.Fatal("closing a card kept its lines")
	}
}
