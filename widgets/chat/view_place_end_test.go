package chat

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/widgets/widgettest"
)

// TestEndingAt: the content height for a last screen at a whole-pixel
// offset ends the scroll exactly there, as the scroll computes in float32,
// however long the transcript, and cuts less than a pixel off it.
func TestEndingAt(t *testing.T) {
	for _, off := range []float32{0, 1, 977, 123456, 1234567, 9876543} {
		for _, view := range []float32{200, 507.3, 573.75, 811.1} {
			h := endingAt(off, view)
			if h-view > off {
				t.Errorf("off %v, view %v: height %v leaves %v below the screen", off, view, h, h-view-off)
			}
			if h < off+view-1 {
				t.Errorf("off %v, view %v: height %v is short by %v", off, view, h, off+view-h)
			}
		}
	}
}

// TestChatViewEndsAtAWholePixel: following the end on a screen of a
// fractional height, the offset is a whole pixel, the scroll sees nothing
// below it (no "more below" shadow), and thousands of older entries put
// before the last screen leave its entries where they were, to the bit.
func TestChatViewEndsAtAWholePixel(t *testing.T) {
	widgettest.NewTestApp(t)
	cv := NewChatView()
	w := test.NewTempWindow(t, cv)
	w.Resize(fyne.NewSize(700, 611.3))
	all := manyItems(12000, 800)
	check := func(what string) {
		t.Helper()
		off, view, h := cv.scroll.Offset.Y, cv.scroll.Size().Height, cv.content.Size().Height
		if view == float32(int(view)) {
			t.Fatalf("the screen is %v high: the test wants a fraction", view)
		}
		if off != float32(int(off)) || off < h-view || h != cv.content.MinSize().Height {
			t.Fatalf("%s: offset %v, content %v (min %v), screen %v", what, off, h, cv.content.MinSize().Height, view)
		}
	}
	cv.SetItems(all[len(all)-20:])
	check("the last screen")
	var before []float32
	for i := 0; i < 20; i++ {
		if v := cv.shownView(i); v != nil {
			before = append(before, v.Position().Y-cv.scroll.Offset.Y)
		}
	}
	cv.SetItems(all)
	check("older entries before it")
	var after []float32
	for i := 0; i < 20; i++ {
		if v := cv.shownView(len(all) - 20 + i); v != nil {
			after = append(after, v.Position().Y-cv.scroll.Offset.Y)
		}
	}
	if !slices.Equal(before, after) || len(before) == 0 {
		t.Fatalf("entries on screen at %v, then at %v", before, after)
	}
}
