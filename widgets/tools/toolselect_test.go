package tools

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"knightcode.ai/desktop/model"
)

// cellPos is the position of a line's column in a view (within the line's
// height, the column's left edge).
func cellPos(v *MonoView, line, col int) fyne.Position {
	return fyne.NewPos(v.pad+float32(col)*v.Cell.Width+1, float32(line)*v.Cell.Height+v.Cell.Height/2)
}

// TestToolOutputSelection: a drag in a card's output selects from where it
// started to where it is (across lines), tinted behind the text; Copy puts
// exactly that on the clipboard; a double click takes a word (a path
// counts as one); a selection in another card drops the first, and the
// sidebar tells the window when one starts.
func TestToolOutputSelection(t *testing.T) {
	out := "first line\nsecond /tmp/x.go here\nthird\n"
	cards := []model.ToolCard{
		{ID: "a", Revision: 1, Name: "bash", ArgsSummary: "cat", Status: model.ToolRunning, Started: sidebarNow.Add(-time.Second), Output: out, Turn: 1},
		{ID: "b", Revision: 1, Name: "bash", ArgsSummary: "ls", Status: model.ToolRunning, Started: sidebarNow.Add(-time.Second), Output: "other output\n", Turn: 1},
	}
	s, _ := showSidebar(t, cards)
	starts := 0
	s.OnSelectStart = func() { starts++ }
	mono := viewOf(t, s, "a").mono

	mono.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: cellPos(mono, 0, 6)}, Button: desktop.MouseButtonPrimary})
	mono.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: cellPos(mono, 1, 6)}})
	if got := s.SelectedText(); got != "line\nsecond" {
		t.Fatalf("dragged selection %q, want \"line\\nsecond\"", got)
	}
	tinted := 0
	for _, r := range mono.rows {
		if r.sel != nil {
			tinted++
		}
	}
	if tinted != 2 || starts != 1 {
		t.Fatalf("%d rows tinted (want 2), %d starts reported (want 1)", tinted, starts)
	}
	if !s.CopySelection() || fyne.CurrentApp().Clipboard().Content() != "line\nsecond" {
		t.Fatalf("clipboard %q after Copy", fyne.CurrentApp().Clipboard().Content())
	}

	mono.DoubleTapped(&fyne.PointEvent{Position: cellPos(mono, 1, 10)})
	if got := s.SelectedText(); got != "/tmp/x.go" {
		t.Fatalf("double click took %q, want the path", got)
	}

	other := viewOf(t, s, "b").mono
	other.DoubleTapped(&fyne.PointEvent{Position: cellPos(other, 0, 1)})
	if got := s.SelectedText(); got != "other" || mono.doc.SelectedText() != "" {
		t.Fatalf("after selecting in the second card: %q, first card still %q", got, mono.doc.SelectedText())
	}
	for _, r := range mono.rows {
		if r.sel != nil {
			t.Fatal("the first card still tints a selection")
		}
	}
	s.ClearSelection()
	if s.CopySelection() {
		t.Fatal("Copy with nothing selected copied")
	}
}

// TestToolOutputSelectionOutlivesItsLines: lines cut from the front of a
// long output are cut from the selection as its tint shows; a card that
// is gone leaves nothing to copy.
func TestToolOutputSelectionOutlivesItsLines(t *testing.T) {
	c := model.ToolCard{ID: "run", Revision: 1, Name: "bash", ArgsSummary: "make", Status: model.ToolRunning,
		Started: sidebarNow.Add(-time.Second), Output: numberedLines(1, 10), Turn: 1}
	s, _ := showSidebar(t, []model.ToolCard{c})
	doc := viewOf(t, s, "run").mono.doc
	doc.sel = monoSelection{anchor: monoPoint{0, 5}, head: monoPoint{4, 4}, active: true}
	s.selectionStarted(doc)
	if got := s.SelectedText(); got != "1\nline 2\nline 3\nline 4\nline" {
		t.Fatalf("selected %q", got)
	}
	// More output than a card keeps (2,000 lines): the first three go.
	c.Revision++
	c.Output = numberedLines(1, 2003)
	s.SetCards([]model.ToolCard{c})
	if first := doc.Lines.First(); first != 3 {
		t.Fatalf("first kept line %d, want 3", first)
	}
	if got := s.SelectedText(); got != "line 4\nline" {
		t.Fatalf("with lines dropped, the copy is %q, want what is kept of the selection", got)
	}
	s.SetCards(nil)
	if got := s.SelectedText(); got != "" || s.CopySelection() {
		t.Fatalf("a card that is gone still gives %q", got)
	}
}
