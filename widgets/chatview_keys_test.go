package widgets

import (
	"math"
	"runtime"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

func scrolledChat(t *testing.T) *ChatView {
	t.Helper()
	newMDTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(800, 600))
	cv.SetItems(manyItems(200, 1500))
	return cv
}

func TestChatViewWheelNotchMovesThreeLines(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS gives distances, not notches")
	}
	cv := scrolledChat(t)
	before := cv.scroll.Offset.Y
	cv.scroll.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: glfwNotch}}) // one notch up
	moved := before - cv.scroll.Offset.Y
	if want := wheelLines * cv.lineHeight(); math.Abs(float64(moved-want)) > 1 {
		t.Fatalf("a notch moved %v px, want %v (three lines)", moved, want)
	}
}

func TestChatViewScrollKeys(t *testing.T) {
	cv := scrolledChat(t)
	end := cv.scroll.Offset.Y
	page := cv.scroll.Size().Height - cv.lineHeight()
	if !cv.ScrollKey(fyne.KeyPageUp, 0) {
		t.Fatal("PageUp not taken")
	}
	if got := end - cv.scroll.Offset.Y; math.Abs(float64(got-page)) > 1 {
		t.Fatalf("PageUp moved %v, want a screen less a line (%v)", got, page)
	}
	if cv.follow {
		t.Fatal("still following after PageUp")
	}
	cv.ScrollKey(fyne.KeyPageDown, 0)
	if cv.scroll.Offset.Y != end || !cv.follow {
		t.Fatalf("PageDown back: offset %v, want %v, following %v", cv.scroll.Offset.Y, end, cv.follow)
	}
	cv.ScrollKey(fyne.KeyHome, fyne.KeyModifierControl)
	if cv.scroll.Offset.Y != 0 || cv.shownView(0) == nil {
		t.Fatalf("Ctrl+Home: offset %v", cv.scroll.Offset.Y)
	}
	if cv.ScrollKey(fyne.KeyHome, 0) || cv.ScrollKey(fyne.KeyA, fyne.KeyModifierControl) {
		t.Fatal("took a key that is not for scrolling")
	}
	cv.ScrollKey(fyne.KeyEnd, fyne.KeyModifierControl)
	if !cv.atBottom() || !cv.follow {
		t.Fatal("Ctrl+End did not go to the end")
	}
}

// Reading above while new content arrives, a button offers the way down.
func TestChatViewJumpToLatest(t *testing.T) {
	cv := scrolledChat(t)
	items := manyItems(200, 1500)
	if cv.latest.Visible() {
		t.Fatal("jump button shown at the end")
	}
	cv.PageUp()
	if cv.latest.Visible() {
		t.Fatal("jump button shown before anything new arrived")
	}
	items = append(items, model.ChatItem{ID: "new", Kind: model.ChatAssistant, Revision: 1, Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: "new reply"}}})
	cv.SetItems(items)
	if !cv.latest.Visible() {
		t.Fatal("no jump button after new content arrived above the reader")
	}
	test.Tap(cv.latest)
	if !cv.atBottom() || cv.latest.Visible() {
		t.Fatal("the jump button did not take the reader to the end")
	}
	if cv.shownView(len(items)-1) == nil {
		t.Fatal("the new reply is not on screen")
	}
}
