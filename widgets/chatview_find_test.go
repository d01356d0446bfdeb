package widgets

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

// findItems is a transcript with a rare word in a few entries.
func findItems(n int) []model.ChatItem {
	items := manyItems(n, 1500)
	for _, i := range []int{7, n / 2, n - 40} {
		if i%2 == 1 {
			items[i].Blocks = append(items[i].Blocks, model.ChatBlock{Kind: model.BlockText, Text: fmt.Sprintf("The Zebra %d and another zebra.", i)})
		} else {
			items[i].Text += fmt.Sprintf(" zebra %d", i)
		}
	}
	return items
}

// foundMarks counts the match highlights drawn in the tree, and the
// current ones.
func foundMarks(cv *ChatView) (all, current int) {
	for _, e := range cv.shown {
		for _, l := range leavesOf(e.view) {
			var m *marks
			switch t := l.leaf.(type) {
			case *textFlow:
				m = &t.marks
			case *codeBlock:
				m = &t.marks
			case *monoBlock:
				m = &t.marks
			}
			all += len(m.found)
			if m.current >= 0 && len(m.found) > 0 {
				current++
			}
		}
	}
	return
}

func TestChatViewFind(t *testing.T) {
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	items := findItems(2000)
	cv.SetItems(items)
	changed := 0
	cv.OnFindChanged = func() { changed++ }

	scrollTo(cv, 0)
	cv.Find("zebra")
	cur, total := cv.FindStatus()
	if total != 4 || cur != 1 {
		t.Fatalf("zebra: %d of %d, want 1 of 4", cur, total)
	}
	if changed == 0 {
		t.Fatal("OnFindChanged not called")
	}
	if cv.shownView(7) == nil {
		t.Fatal("the first match's entry is not on screen")
	}
	if all, current := foundMarks(cv); all < 2 || current != 1 {
		t.Fatalf("%d matches highlighted, %d current", all, current)
	}
	cv.FindNext()
	if cur, _ := cv.FindStatus(); cur != 2 {
		t.Fatalf("next: match %d", cur)
	}
	for range 2 {
		cv.FindNext()
	}
	if cur, _ := cv.FindStatus(); cur != 4 || cv.shownView(len(items)-40) == nil {
		t.Fatalf("fourth match %d, its entry on screen %v", cur, cv.shownView(len(items)-40) != nil)
	}
	cv.FindNext()
	if cur, _ := cv.FindStatus(); cur != 1 {
		t.Fatalf("next after the last: %d, want 1 (wrapping)", cur)
	}
	cv.FindPrevious()
	if cur, _ := cv.FindStatus(); cur != 4 {
		t.Fatalf("previous from the first: %d, want 4", cur)
	}
	// From further down, the first match is the one after the screen.
	scrollTo(cv, float32(cv.rows.topOf(len(items)/2+10)))
	cv.Find("zebra")
	if cur, _ := cv.FindStatus(); cur != 4 {
		t.Fatalf("finding from the middle starts at match %d, want 4 (the first after the screen)", cur)
	}
	cv.Find("no such word")
	if cur, total := cv.FindStatus(); cur != 0 || total != 0 {
		t.Fatalf("no match: %d of %d", cur, total)
	}
	cv.Find("")
	if all, _ := foundMarks(cv); all != 0 {
		t.Fatalf("%d highlights after finding ended", all)
	}
}

func TestFindBarKeys(t *testing.T) {
	newMDTestApp(t)
	b := NewFindBar()
	w := test.NewTempWindow(t, b)
	var log []string
	b.OnChanged = func(q string) { log = append(log, "q:"+q) }
	b.OnNext = func() { log = append(log, "next") }
	b.OnPrevious = func() { log = append(log, "prev") }
	b.OnClose = func() { log = append(log, "close") }
	b.Open(w.Canvas())
	if !b.Visible() || w.Canvas().Focused() != b.entry {
		t.Fatal("Open did not show the bar with the keyboard in its field")
	}
	test.Type(b.entry, "ab")
	b.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	b.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF3})
	b.entry.TypedShortcut(&desktopShiftEnter)
	b.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	want := []string{"q:a", "q:ab", "next", "next", "prev", "close"}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", log, want)
	}
	if b.Visible() {
		t.Fatal("Esc left the bar open")
	}
	b.SetStatus(3, 17)
	if b.status.Text != "3 of 17" {
		t.Fatalf("status %q", b.status.Text)
	}
}

// BenchmarkChatViewFind12k is a keystroke of find in a 12,000-entry
// transcript: the first match, far from the screen, found and shown, and
// every match counted (in place here; in the app in the background).
func BenchmarkChatViewFind12k(b *testing.B) {
	newMDTestApp(b)
	cv := NewChatView()
	w := test.NewWindow(cv)
	defer w.Close()
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(findItems(12000))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scrollTo(cv, 0)
		cv.Find("zebr")
		if _, total := cv.FindStatus(); total != 4 {
			b.Fatalf("%d matches", total)
		}
	}
}

var desktopShiftEnter = desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShift}

// In a reply taller than the screen, the first match is the first one on
// screen or after it, not the reply's first.
func TestChatViewFindStartsAtTheScreen(t *testing.T) {
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	var b []string
	for i := 0; i < 400; i++ {
		b = append(b, fmt.Sprintf("Paragraph %d mentions the needle once.", i))
	}
	cv.SetItems([]model.ChatItem{{ID: "a", Kind: model.ChatAssistant, Revision: 1, Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: strings.Join(b, "\n\n")}}}})
	cv.Find("needle")
	cur, total := cv.FindStatus()
	if total != 400 || cur < 380 {
		t.Fatalf("at the end of the reply find starts at %d of %d", cur, total)
	}
}
