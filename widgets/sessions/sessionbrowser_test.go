package sessions

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/widgettest"
)

func newTestBrowser(t *testing.T) (*SessionBrowser, fyne.Window) {
	test.NewTempApp(t)
	b := NewSessionBrowser()
	b.now = func() time.Time { return shotNow }
	b.SetSessions(sampleSessions())
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(560, 420))
	return b, w
}

func TestSessionBrowserLooks(t *testing.T) {
	b, w := newTestBrowser(t)
	test.AssertRendersToMarkup(t, "sessionbrowser/list.xml", w.Canvas())

	b.search.SetText("zzz")
	test.AssertRendersToMarkup(t, "sessionbrowser/no_match.xml", w.Canvas())

	b.SetSessions(nil)
	b.search.SetText("")
	test.AssertRendersToMarkup(t, "sessionbrowser/empty.xml", w.Canvas())
}

func TestSessionBrowserOrderAndFilter(t *testing.T) {
	b, _ := newTestBrowser(t)
	rows := sampleSessions()
	// Given oldest first, shown newest first.
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	b.SetSessions(rows)
	if got := b.sessions[b.shown[0]].Path; got != "/s/a.jsonl" {
		t.Fatalf("first row %s, want the newest", got)
	}
	// Every word must appear in the title, folder or model.
	for q, want := range map[string]int{"": 5, "knightcode": 3, "KNIGHTCODE packaging": 1, "opus": 1, "scratch qwen": 1, "flaky opus": 0} {
		b.search.SetText(q)
		if len(b.shown) != want {
			t.Errorf("query %q shows %d, want %d", q, len(b.shown), want)
		}
	}
	b.search.SetText("2 of")
	if b.count.Text != "0 of 5 sessions" {
		t.Errorf("count %q", b.count.Text)
	}
}

func TestSessionBrowserKeyboard(t *testing.T) {
	b, w := newTestBrowser(t)
	c := w.Canvas()
	var opened []string
	b.OnOpen = func(p string) { opened = append(opened, p) }
	closed := 0
	b.OnClose = func() { closed++ }

	b.FocusSearch(c)
	if c.Focused() != b.search {
		t.Fatal("search box not focused")
	}
	// Typing filters; Enter in the search box opens the top match.
	widgettest.TypeFocused(t, c, "rpc")
	if len(b.shown) != 1 {
		t.Fatalf("%d rows for \"rpc\"", len(b.shown))
	}
	widgettest.PressKey(t, c, fyne.KeyReturn)
	if len(opened) != 1 || opened[0] != "/s/b.jsonl" {
		t.Fatalf("opened %v", opened)
	}

	// Esc clears the search, then closes.
	widgettest.PressKey(t, c, fyne.KeyEscape)
	if b.search.Text != "" || len(b.shown) != 5 || closed != 0 {
		t.Fatalf("Esc left %q, %d rows, closed %d", b.search.Text, len(b.shown), closed)
	}

	// Down moves into the list at the top row, then down it; Enter opens.
	widgettest.PressKey(t, c, fyne.KeyDown)
	if c.Focused() != b.list || b.list.Sel != 0 {
		t.Fatalf("focus %T, selected %d", c.Focused(), b.list.Sel)
	}
	widgettest.PressKey(t, c, fyne.KeyDown)
	widgettest.PressKey(t, c, fyne.KeyDown)
	widgettest.PressKey(t, c, fyne.KeyReturn)
	if len(opened) != 2 || opened[1] != "/s/c.jsonl" {
		t.Fatalf("opened %v", opened)
	}
	widgettest.PressKey(t, c, fyne.KeyEnd)
	if b.list.Sel != 4 {
		t.Fatalf("End selected %d", b.list.Sel)
	}
	widgettest.PressKey(t, c, fyne.KeyHome)
	test.AssertRendersToMarkup(t, "sessionbrowser/keyboard.xml", c)

	// Up on the top row goes back to the search box; so does typing,
	// which goes on filtering.
	widgettest.PressKey(t, c, fyne.KeyUp)
	if c.Focused() != b.search {
		t.Fatalf("Up on the first row focused %T", c.Focused())
	}
	widgettest.PressKey(t, c, fyne.KeyDown)
	widgettest.TypeFocused(t, c, "old")
	if c.Focused() != b.search || b.search.Text != "old" || len(b.shown) != 1 {
		t.Fatalf("typing in the list: focus %T, search %q, %d rows", c.Focused(), b.search.Text, len(b.shown))
	}
	widgettest.PressKey(t, c, fyne.KeyEscape)
	widgettest.PressKey(t, c, fyne.KeyEscape)
	if closed != 1 {
		t.Fatalf("closed %d times", closed)
	}
}

func TestSessionBrowserMouse(t *testing.T) {
	b, w := newTestBrowser(t)
	var opened []string
	b.OnOpen = func(p string) { opened = append(opened, p) }
	clock := shotNow
	b.list.Now = func() time.Time { return clock }

	row := func(i int) *sessionRow {
		for _, o := range test.LaidOutObjects(b.list) {
			if r, ok := o.(*sessionRow); ok && r.Id == i && r.Visible() {
				return r
			}
		}
		t.Fatalf("row %d not on screen", i)
		return nil
	}
	test.Tap(row(1))
	if b.list.Sel != 1 || w.Canvas().Focused() != b.list || len(opened) != 0 {
		t.Fatalf("one click: selected %d, focus %T, opened %v", b.list.Sel, w.Canvas().Focused(), opened)
	}
	clock = clock.Add(time.Second) // too slow for a double click
	test.Tap(row(1))
	if len(opened) != 0 {
		t.Fatalf("two slow clicks opened %v", opened)
	}
	clock = clock.Add(100 * time.Millisecond)
	test.Tap(row(1))
	if len(opened) != 1 || opened[0] != "/s/b.jsonl" {
		t.Fatalf("double click opened %v", opened)
	}
}

func TestSessionBrowserScopeAndButtons(t *testing.T) {
	b, _ := newTestBrowser(t)
	var scopes []bool
	b.OnScopeChanged = func(all bool) { scopes = append(scopes, all) }
	news, refreshes := 0, 0
	b.OnNew = func() { news++ }
	b.OnRefresh = func() { refreshes++ }

	b.SetScope(true)
	if len(scopes) != 0 || b.scope.Selected() != scopeAllFolders || !b.Scope() {
		t.Fatalf("SetScope fired %v, shows %q", scopes, b.scope.Selected())
	}
	b.scope.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft}) // as the arrow key does
	if len(scopes) != 1 || scopes[0] || b.Scope() {
		t.Fatalf("user toggle gave %v", scopes)
	}
	test.Tap(b.create)
	test.Tap(b.refresh)
	if news != 1 || refreshes != 1 {
		t.Fatalf("new %d, refresh %d", news, refreshes)
	}
	closed := 0
	b.OnClose = func() { closed++ }
	test.Tap(b.closeButton)
	if closed != 1 {
		t.Fatalf("Close closed %d times", closed)
	}
}

func TestSessionDate(t *testing.T) {
	for d, want := range map[time.Duration]string{
		20 * time.Second:    "just now",
		5 * time.Minute:     "5 min ago",
		5 * time.Hour:       "today 10:30",
		20 * time.Hour:      "yesterday 19:30",
		3 * 24 * time.Hour:  "Mon 15:30",
		40 * 24 * time.Hour: "31 Jan",
	} {
		if got := kit.RelativeDate(shotNow.Add(-d), shotNow); got != want {
			t.Errorf("%v ago: %q, want %q", d, got, want)
		}
	}
	if got := kit.RelativeDate(time.Date(2024, 5, 1, 0, 0, 0, 0, time.Local), shotNow); got != "1 May 2024" {
		t.Errorf("old date %q", got)
	}
}

// TestSessionBrowserMessageHits: sessions found by their messages come
// below those whose title matches, each with who said what matched; an
// answer to a query since changed is dropped, and clearing the query
// drops the hits.
func TestSessionBrowserMessageHits(t *testing.T) {
	b, w := newTestBrowser(t)
	var asked []string
	b.OnQuery = func(q string) { asked = append(asked, q) }
	b.FocusSearch(w.Canvas())
	widgettest.TypeFocused(t, w.Canvas(), "sidebar")
	if len(asked) == 0 || asked[len(asked)-1] != "sidebar" {
		t.Fatalf("the browser asked for %q", asked)
	}
	if got := shownPaths(b); !slices.Equal(got, []string{"/s/a.jsonl"}) {
		t.Fatalf("title matches %v", got)
	}
	b.SetMessageHits("side", []model.MessageHit{{Path: "/s/d.jsonl", Who: "you", Snippet: "the sidebar"}})
	if got := shownPaths(b); !slices.Equal(got, []string{"/s/a.jsonl"}) {
		t.Fatalf("a stale answer changed the list: %v", got)
	}
	b.SetMessageHits("sidebar", []model.MessageHit{
		{Path: "/s/c.jsonl", Who: "agent", Snippet: "…the sidebar recycles its cards…", Matches: [][2]int{{7, 14}}},
		{Path: "/s/a.jsonl", Who: "you", Snippet: "make the sidebar fast"},
		{Path: "/gone.jsonl", Who: "you", Snippet: "not listed in this scope"},
	})
	if got := shownPaths(b); !slices.Equal(got, []string{"/s/a.jsonl", "/s/c.jsonl"}) {
		t.Fatalf("with message hits %v, want the title match first, then the message match", got)
	}
	if h, ok := b.MessageHit("/s/c.jsonl"); !ok || h.Who != "agent" {
		t.Fatalf("hit for c: %+v %v", h, ok)
	}
	if !strings.Contains(rowMeta(b, 1), "agent: “…the sidebar recycles") {
		t.Fatalf("the second row says %q", rowMeta(b, 1))
	}
	// The matched word is tinted, where it is drawn.
	r := drawnRow(b, 1)
	var marks []*canvas.Rectangle
	for _, m := range r.marks {
		if m.Visible() {
			marks = append(marks, m)
		}
	}
	width := func(s string) float32 { return fyne.MeasureText(s, r.meta.TextSize, r.meta.TextStyle).Width }
	if len(marks) != 1 {
		t.Fatalf("%d words tinted, want the one match", len(marks))
	}
	if x, want := marks[0].Position().X, r.meta.Position().X+width("agent: “…the ")-1; x != want || marks[0].Size().Width != width("sidebar")+2 {
		t.Fatalf("the tint is at x=%v, %v wide; want x=%v over \"sidebar\"", x, marks[0].Size().Width, want)
	}
	b.search.SetText("")
	if _, ok := b.MessageHit("/s/c.jsonl"); ok || len(shownPaths(b)) != len(sampleSessions()) {
		t.Fatalf("after clearing: %v", shownPaths(b))
	}
}

func shownPaths(b *SessionBrowser) []string {
	var out []string
	for _, i := range b.shown {
		out = append(out, b.sessions[i].Path)
	}
	return out
}

// rowMeta is the second line of row id as drawn.
func rowMeta(b *SessionBrowser, id int) string { return drawnRow(b, id).meta.Text }

// drawnRow is row id laid out wide.
func drawnRow(b *SessionBrowser, id int) *sessionRow {
	r := b.newRow().(*sessionRow)
	r.Resize(fyne.NewSize(2000, r.HeightAt(2000)))
	b.updateRow(id, r)
	return r
}

// TestSessionBrowserPreview: moving the selection asks for that session's
// last messages, shown beside the list with who and when (the date for
// days other than today); an answer for a session no longer chosen is
// dropped.
func TestSessionBrowserPreview(t *testing.T) {
	widgettest.NewTestApp(t)
	b := NewSessionBrowser()
	b.now = func() time.Time { return shotNow }
	var asked []string
	b.OnPreview = func(path string) { asked = append(asked, path) }
	b.SetSessions(sampleSessions())
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(900, 500))
	b.list.SelectRow(1)
	if len(asked) == 0 || asked[len(asked)-1] != "/s/b.jsonl" {
		t.Fatalf("asked for %v", asked)
	}
	b.SetPreview("/s/a.jsonl", []model.PreviewMessage{{Who: "You", Text: "stale"}}, nil)
	if strings.Contains(previewText(b), "stale") {
		t.Fatal("a stale preview was shown")
	}
	b.SetPreview("/s/b.jsonl", []model.PreviewMessage{
		{Who: "You", Text: "why is it flaky?", When: shotNow.Add(-26 * time.Hour)},
		{Who: "gpt-4o-mini", Text: "A race in the reader.", When: shotNow.Add(-time.Minute)},
	}, nil)
	got := previewText(b)
	for _, want := range []string{"why is it flaky?", "A race in the reader.", "You  ·  " + previewTime(shotNow.Add(-26*time.Hour), shotNow), "gpt-4o-mini  ·  " + shotNow.Add(-time.Minute).Format("15:04")} {
		if !strings.Contains(got, want) {
			t.Fatalf("the preview says %q, want %q in it", got, want)
		}
	}
	if !strings.Contains(previewTime(shotNow.Add(-26*time.Hour), shotNow), shotNow.Add(-26*time.Hour).Format("2 Jan")) {
		t.Error("yesterday's message has no date")
	}
	if !b.preview.scroll.Visible() {
		t.Error("no preview at 900 wide")
	}
	// A search that lists nothing previews nothing; a match previews again.
	b.SetQuery("zzz")
	if got := previewText(b); got != previewNone {
		t.Fatalf("with nothing listed the preview says %q", got)
	}
	b.SetQuery("rpc")
	if len(asked) == 0 || asked[len(asked)-1] != "/s/b.jsonl" || previewText(b) != "Reading…" {
		t.Fatalf("after a match: asked %v, preview %q", asked, previewText(b))
	}
	w.Resize(fyne.NewSize(500, 500))
	if b.preview.scroll.Visible() {
		t.Error("a preview squeezed into 500 wide")
	}
}

func previewText(b *SessionBrowser) string {
	var parts []string
	for _, o := range b.preview.box.Objects {
		if l, ok := o.(*widget.Label); ok {
			parts = append(parts, l.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// A forked session's small print names the session it came from.
func TestSessionMetaSaysWhereAForkCameFrom(t *testing.T) {
	row := model.SessionRow{Subtitle: "~/proj", Messages: 4, Model: "fake/thinker", From: "Hello, show me some markdown please"}
	if got, want := sessionMeta(row), "~/proj · 4 messages · fake/thinker · from: Hello, show me some markdown please"; got != want {
		t.Fatalf("meta %q, want %q", got, want)
	}
}
