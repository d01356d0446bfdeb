package markdown

import "knightcode.ai/desktop/widgets/kit"

// foldable is what a text drawn by lines (textFlow, codeBlock) needs to be
// folded past CollapseLines lines with "Show all" under it, and shown whole
// in layout steps.
type foldable struct {
	// Resized is called when the text changed height by itself (Show all,
	// or a step of a long layout), for its parent to measure it again.
	Resized  func()
	expanded bool
	// More is set when the text is folded with some of it left over;
	// pending while it is shown whole and layout steps are still to come.
	More, Pending bool
	showAll       *kit.MiniButton
}

// limit is how many lines the next layout stops at.
func (f *foldable) limit() int {
	if f.expanded {
		return LayoutStepLines
	}
	return CollapseLines
}

// laidOut records whether a layout reached the end of the text.
func (f *foldable) laidOut(done bool) {
	f.More = !done && !f.expanded
	f.Pending = !done && f.expanded
}

// button is the Show all action; expand shows the text whole.
func (f *foldable) button(expand func()) *kit.MiniButton {
	if f.showAll == nil {
		f.showAll = kit.NewMiniLinkButton("Show all", expand)
	}
	return f.showAll
}

// grew tells the parent the height changed, or refreshes when nobody
// listens.
func (f *foldable) grew(refresh func()) {
	if f.Resized != nil {
		f.Resized()
		return
	}
	refresh()
}

// lineWindow is the window of a text drawn by lines, with the version of
// the layout last drawn, so that a window that did not move over a layout
// that did not change costs nothing.
type lineWindow struct {
	win      kit.RowWindow
	drawnVer uint64
}

// moveTo takes the new window and reports whether to draw again.
func (w *lineWindow) moveTo(top, bottom float32, ver uint64) bool {
	nw := kit.RowWindow{Top: top, Bottom: bottom}
	if nw == w.win && w.drawnVer == ver {
		return false
	}
	w.win = nw
	return true
}
