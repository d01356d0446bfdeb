package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// layoutCounter stands in for Fyne's scroll renderer, whose every layout
// ends in a canvas refresh.
type layoutCounter struct {
	fyne.WidgetRenderer
	layouts int
}

func (c *layoutCounter) Layout(fyne.Size) { c.layouts++ }
func (c *layoutCounter) Refresh()         {}

// The scroll is laid out again only when its size, offset or content
// changed since the last layout or refresh: a layout that would place
// everything where it is would only repaint the window once more.
func TestQuietScrollSkipsALayoutThatChangesNothing(t *testing.T) {
	test.NewTempApp(t)
	content := canvas.NewRectangle(nil)
	content.SetMinSize(fyne.NewSize(100, 1000))
	content.Resize(fyne.NewSize(200, 1000))
	s := newChatScroll(content, nil)
	inner := &layoutCounter{}
	r := &quietScrollRenderer{WidgetRenderer: inner, s: s}
	size := fyne.NewSize(200, 300)
	s.Resize(size)

	step := func(what string, change func(), want int) {
		t.Helper()
		change()
		r.Layout(size)
		if inner.layouts != want {
			t.Fatalf("%s: %d layouts, want %d", what, inner.layouts, want)
		}
	}
	step("the first layout", func() {}, 1)
	step("the same again", func() {}, 1)
	step("the offset moved", func() { s.Offset.Y = 40 }, 2)
	step("the content grew and was sized (Place)", func() {
		content.SetMinSize(fyne.NewSize(100, 1200))
		content.Resize(fyne.NewSize(200, 1200))
	}, 3)
	step("a refresh placed the bars", func() {
		content.SetMinSize(fyne.NewSize(100, 1300))
		content.Resize(fyne.NewSize(200, 1300))
		r.Refresh()
	}, 3)
	step("the content's minimum grew, unsized", func() { content.SetMinSize(fyne.NewSize(100, 1400)) }, 4)
	step("a new size", func() { size = fyne.NewSize(200, 320); s.Resize(size) }, 5)
}
