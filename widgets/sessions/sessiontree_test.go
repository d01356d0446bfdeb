package sessions

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/widgettest"
)

func newTestTree(t *testing.T, rows []model.TreeRow) (*SessionTree, fyne.Window) {
	test.NewTempApp(t)
	tr := NewSessionTree()
	tr.now = func() time.Time { return shotNow }
	tr.SetRows(rows)
	w := test.NewTempWindow(t, tr)
	w.Resize(fyne.NewSize(560, 420))
	return tr, w
}

func TestSessionTreeLooks(t *testing.T) {
	tr, w := newTestTree(t, sampleTree())
	tr.Focus(w.Canvas())
	test.AssertRendersToMarkup(t, "sessiontree/tree.xml", w.Canvas())

	tr.SetRows(nil)
	test.AssertRendersToMarkup(t, "sessiontree/empty.xml", w.Canvas())
}

func TestSessionTreeGuides(t *testing.T) {
	var g treeGuides
	rows := sampleTree()
	g.Reset(len(rows))
	for i := range rows {
		g.add(rows, i)
	}
	want := map[int]treeGuide{
		3:  {elbow: -1, down: true},
		4:  {elbow: 0, tee: true, indent: 1},
		5:  {elbow: -1, rails: 1, indent: 1},
		6:  {elbow: 0, indent: 1},
		7:  {elbow: -1, down: true, indent: 1},
		8:  {elbow: 1, tee: true, indent: 2},
		9:  {elbow: -1, rails: 2, indent: 2},
		10: {elbow: 1, indent: 2},
	}
	for i, got := range g.g {
		w, ok := want[i]
		if !ok {
			w = treeGuide{elbow: -1, indent: int8(rows[i].Depth)}
		}
		if got != w {
			t.Errorf("row %d (%s): %+v, want %+v", i, rows[i].ID, got, w)
		}
	}
}

// Rows appended later end up with the guides a full SetRows gives them,
// branch lines reaching back included.
func TestSessionTreeAppendRows(t *testing.T) {
	rows := sampleTree()
	full, _ := newTestTree(t, rows)
	for _, split := range []int{1, 5, 6, 10, 13} {
		tr := NewSessionTree()
		first := append([]model.TreeRow(nil), rows[:split]...)
		for i := range first {
			first[i].IsLeaf = i == split-1
		}
		tr.SetRows(first)
		tr.AppendRows(rows[split:])
		for i := range rows {
			if tr.guides.g[i] != full.guides.g[i] {
				t.Errorf("split %d, row %d: %+v, want %+v", split, i, tr.guides.g[i], full.guides.g[i])
			}
		}
		// The new leaf took the mark from the old one.
		leaves := 0
		for _, r := range tr.rows {
			if r.IsLeaf {
				leaves++
			}
		}
		if leaves != 1 || tr.leaf != len(rows)-1 {
			t.Errorf("split %d: %d leaves, leaf row %d", split, leaves, tr.leaf)
		}
	}
}

func TestSessionTreeFork(t *testing.T) {
	tr, w := newTestTree(t, sampleTree())
	c := w.Canvas()
	var forks []string
	tr.OnFork = func(id string) { forks = append(forks, id) }
	closed := 0
	tr.OnClose = func() { closed++ }

	// Focus lands on the leaf, an assistant reply: nothing to fork.
	tr.Focus(c)
	if r, _ := tr.Selected(); r.ID != "a6" || !tr.fork.Disabled() {
		t.Fatalf("selected %q, fork disabled %v", r.ID, tr.fork.Disabled())
	}
	widgettest.PressKey(t, c, fyne.KeyReturn)
	widgettest.PressKey(t, c, fyne.KeyUp) // "Now write the tests": the user's, on the branch
	if r, _ := tr.Selected(); r.ID != "u5" || tr.fork.Disabled() || tr.hintText != treeHintFork {
		t.Fatalf("selected %q, fork disabled %v", r.ID, tr.fork.Disabled())
	}
	widgettest.PressKey(t, c, fyne.KeyEnter)
	test.Tap(tr.fork)
	if len(forks) != 2 || forks[0] != "u5" || forks[1] != "u5" {
		t.Fatalf("forks %v", forks)
	}
	// The user's message on an abandoned branch cannot be forked from.
	tr.Focus(c) // the click on the button took the focus
	tr.list.SelectRow(4)
	if !tr.fork.Disabled() {
		t.Fatal("fork enabled off the active branch")
	}
	widgettest.PressKey(t, c, fyne.KeyReturn)
	widgettest.PressKey(t, c, fyne.KeyEscape)
	if len(forks) != 2 || closed != 1 {
		t.Fatalf("forks %v, closed %d", forks, closed)
	}
	// The selection survives a refresh that keeps its entry.
	tr.SetRows(sampleTree())
	if r, _ := tr.Selected(); r.ID != "u2" {
		t.Fatalf("after SetRows selected %q", r.ID)
	}
}

// bigTree is a long session forked every 50 entries.
func bigTree(n int) []model.TreeRow {
	rows := make([]model.TreeRow, 0, n)
	depth, parent := 0, ""
	for i := range n {
		id := fmt.Sprint(i)
		kind := "assistant"
		if i%2 == 0 {
			kind = "user"
		}
		r := model.TreeRow{ID: id, ParentID: parent, Kind: kind, Text: "entry " + id, Depth: depth, OnActiveBranch: true}
		if i%50 == 49 && depth < 30 {
			depth++
		}
		rows = append(rows, r)
		parent = id
	}
	rows[n-1].IsLeaf = true
	return rows
}

func TestSessionTreeVirtualises(t *testing.T) {
	start := time.Now()
	tr, w := newTestTree(t, bigTree(5000))
	if tr.list.Created == 0 || tr.list.Created > 40 {
		t.Fatalf("built %d row widgets for 5,000 entries in a 420 px window", tr.list.Created)
	}
	// It opened at the leaf, at the end.
	leafShown := false
	for _, o := range test.LaidOutObjects(tr.list) {
		if r, ok := o.(*treeRow); ok && r.Visible() && r.row.IsLeaf {
			leafShown = true
		}
	}
	if !leafShown {
		t.Fatal("the leaf is not on screen")
	}
	built := tr.list.Created
	tr.AppendRows(bigTree(1000))
	if tr.list.Created > built+2 || len(tr.rows) != 6000 {
		t.Fatalf("appending built %d more rows; %d rows", tr.list.Created-built, len(tr.rows))
	}
	// A jump swaps every row on screen; widget.List builds the new ones
	// before it frees the old, so at most twice a screenful exists.
	tr.Focus(w.Canvas())
	widgettest.PressKey(t, w.Canvas(), fyne.KeyPageUp)
	widgettest.PressKey(t, w.Canvas(), fyne.KeyEnd)
	if tr.list.Sel != 5999 || tr.list.Created > 2*built+2 {
		t.Fatalf("End selected %d; %d row widgets", tr.list.Sel, tr.list.Created)
	}
	t.Logf("5,000 + 1,000 rows in %v, %d row widgets", time.Since(start), tr.list.Created)
}

// TestSessionTreeFilter: words typed in the filter keep the entries that
// have them all (text or label), "My prompts only" the user's messages, as
// a flat list; the selection survives filtering and clearing, and the
// arrows go from the field into the list.
func TestSessionTreeFilter(t *testing.T) {
	widgettest.NewTestApp(t)
	tr := NewSessionTree()
	tr.SetRows(sampleTree())
	w := test.NewTempWindow(t, tr)
	w.Resize(fyne.NewSize(560, 420))
	texts := func() []string {
		var out []string
		for id := 0; id < tr.count(); id++ {
			out = append(out, tr.rows[tr.at(id)].Text)
		}
		return out
	}
	all := len(texts())

	tr.SetFilter("branch lines", false)
	if got := texts(); len(got) != 1 || got[0] != "Keep the list and draw branch lines" {
		t.Fatalf("filtered to %q", got)
	}
	w.Canvas().Focus(tr.filter)
	widgettest.PressKey(t, w.Canvas(), fyne.KeyDown)
	if r, ok := tr.Selected(); !ok || r.Text != "Keep the list and draw branch lines" || w.Canvas().Focused() != tr.list {
		t.Fatalf("Down from the filter selected %+v (%v)", r, ok)
	}
	tr.SetFilter("plan", false) // the label
	if got := texts(); len(got) != 1 {
		t.Fatalf("by label: %q", got)
	}
	tr.SetFilter("", true)
	for _, id := range tr.shown {
		if tr.rows[id].Kind != "user" {
			t.Fatalf("my prompts only shows a %s entry", tr.rows[id].Kind)
		}
	}
	if len(tr.shown) == 0 || len(tr.shown) >= all {
		t.Fatalf("my prompts only: %d of %d", len(tr.shown), all)
	}
	if r, ok := tr.Selected(); !ok || r.Text != "Keep the list and draw branch lines" {
		t.Fatalf("selection lost: %+v", r)
	}
	tr.SetFilter("nothing like this", false)
	if tr.count() != 0 || !tr.empty.Visible() || tr.empty.Text != "No entry matches the filter" {
		t.Fatalf("no match: %d rows, empty %v %q", tr.count(), tr.empty.Visible(), tr.empty.Text)
	}
	tr.SetFilter("", false)
	if len(texts()) != all || tr.filtering {
		t.Fatalf("cleared: %d of %d", len(texts()), all)
	}
}
