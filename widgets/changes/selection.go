package changes

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// lineSelection is a run of whole rows the user picked to copy: a click
// picks one, a Shift+click extends from the first. Side by side, the
// lines copied run from the first line the rows show to the last. Copy takes them as
// unified-diff text, signs included, so they paste as a patch excerpt.
type lineSelection struct {
	anchor, end int // -1 when nothing is selected
}

func noSelection() lineSelection { return lineSelection{-1, -1} }

func (s lineSelection) bounds() (lo, hi int) { return min(s.anchor, s.end), max(s.anchor, s.end) }

func (s lineSelection) has(i int) bool {
	lo, hi := s.bounds()
	return s.anchor >= 0 && i >= lo && i <= hi
}

var _ desktop.Mouseable = (*diffBody)(nil)

// MouseDown selects the line under the pointer, or extends the selection
// to it with Shift.
func (b *diffBody) MouseDown(ev *desktop.MouseEvent) {
	n := b.v.rowCount()
	if ev.Button != desktop.MouseButtonPrimary || b.m.rowH <= 0 || n == 0 {
		return
	}
	i := min(max(int(ev.Position.Y/b.m.rowH), 0), n-1)
	sel := &b.v.sel
	if ev.Modifier&fyne.KeyModifierShift != 0 && sel.anchor >= 0 {
		sel.end = i
	} else {
		sel.anchor, sel.end = i, i
	}
	b.v.focus()
	b.draw()
}

func (b *diffBody) MouseUp(*desktop.MouseEvent) {}

// SelectedText is the selected lines as unified-diff text, "" when none
// are selected.
func (v *DiffView) SelectedText() string {
	if v.sel.anchor < 0 || v.sel.anchor >= v.rowCount() {
		return ""
	}
	first, last := v.sel.bounds()
	lo, hi := v.linesOfRows(first, min(last, v.rowCount()-1)+1)
	return Diff{Lines: v.diff.Lines[lo : hi+1]}.Text()
}
