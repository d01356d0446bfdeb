package chat

import "testing"

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
