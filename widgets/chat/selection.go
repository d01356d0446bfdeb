package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/widgets/markdown"
)

// A selection in the transcript is kept as places in the text, never as
// objects: the objects of the lines come and go with the window, and a
// streaming reply replaces its tail. A place is an entry (by ID, so it
// survives entries put in front), the ordinal of a piece of text in the
// entry (a paragraph, a code block, a command's output; see
// collectLeaves) and a byte offset in that piece. Whatever is drawn then
// draws its part of the selection.

// selPoint is a place in the transcript's text.
type selPoint struct {
	id   string
	leaf int
	off  int
}

// chatSelection is what the user selected, from anchor (where the drag
// began) to focus (where it is now), in either order.
type chatSelection struct {
	anchor, focus selPoint
	active        bool
}

// before orders two places, by entry, then piece, then offset.
func (cv *ChatView) before(a, b selPoint) bool {
	ia, ib := cv.ids[a.id], cv.ids[b.id]
	if ia != ib {
		return ia < ib
	}
	if a.leaf != b.leaf {
		return a.leaf < b.leaf
	}
	return a.off < b.off
}

// ordered is the selection from its first place to its last.
func (cv *ChatView) ordered() (from, to selPoint) {
	from, to = cv.sel.anchor, cv.sel.focus
	if cv.before(to, from) {
		from, to = to, from
	}
	return from, to
}

// HasSelection says whether some text of the transcript is selected.
func (cv *ChatView) HasSelection() bool {
	if !cv.sel.active {
		return false
	}
	from, to := cv.ordered()
	return from != to
}

// ClearSelection selects nothing.
func (cv *ChatView) ClearSelection() {
	if !cv.sel.active {
		return
	}
	cv.sel.active = false
	cv.drawSelection()
}

// leavesOf lists the text of an entry's view in reading order.
func leavesOf(v itemView) []markdown.PlacedLeaf {
	var leaves []markdown.PlacedLeaf
	if p, ok := v.(markdown.SelectionParent); ok {
		for _, c := range p.SelectionKids() {
			leaves = markdown.CollectLeaves(c, fyne.Position{}, leaves)
		}
	}
	return leaves
}

// drawSelection tells the text of the entries on screen which part of it
// is selected.
func (cv *ChatView) drawSelection() {
	cv.selDrawn = cv.sel.active || cv.find.query != ""
	from, to := cv.ordered()
	for _, e := range cv.shown {
		id := cv.items[e.index].ID
		ord := 0
		for k, l := range leavesOf(e.view) {
			a, b := 0, 0
			if cv.sel.active {
				a, b = cv.leafRange(id, e.index, k, len(l.Leaf.SelText()), from, to)
			}
			l.Leaf.SetSelection(a, b)
			var found []markdown.SelRange
			cur := -1
			if cv.find.query != "" && cv.visibleLeaf(e.index, l) {
				found, cur, ord = cv.foundIn(id, l.Leaf, ord)
			} else if cv.find.query != "" {
				ord += countFold(l.Leaf.SelText(), cv.find.query)
			}
			l.Leaf.SetFound(found, cur)
		}
	}
}

// leafRange is the part [a, b) of piece k of entry id (at index i), n
// bytes long, that the selection [from, to] covers.
func (cv *ChatView) leafRange(id string, i, k, n int, from, to selPoint) (a, b int) {
	start, end := selPoint{id: id, leaf: k, off: 0}, selPoint{id: id, leaf: k, off: n}
	if cv.before(end, from) || cv.before(to, start) {
		return 0, 0
	}
	a, b = 0, n
	if from.id == id && from.leaf == k {
		a = from.off
	}
	if to.id == id && to.leaf == k {
		b = to.off
	}
	return min(a, n), min(b, n)
}

// pointAt is the place in the text nearest a point of the content.
func (cv *ChatView) pointAt(p fyne.Position) (selPoint, bool) {
	if len(cv.items) == 0 {
		return selPoint{}, false
	}
	// Only entries placed on screen have the layout a point maps into.
	i := cv.rows.at(float64(p.Y))
	if len(cv.shown) > 0 {
		i = min(max(i, cv.shown[0].index), cv.shown[len(cv.shown)-1].index)
	}
	v := cv.viewFor(&cv.items[i])
	local := p.Subtract(fyne.NewPos(0, float32(cv.rows.topOf(i))))
	leaves := leavesOf(v)
	if len(leaves) == 0 {
		return selPoint{}, false
	}
	k := nearestLeaf(leaves, local)
	l := leaves[k]
	return selPoint{id: cv.items[i].ID, leaf: k, off: l.Leaf.OffsetAt(local.Subtract(l.Pos))}, true
}

// nearestLeaf is the leaf under p, else the nearest above or below it.
func nearestLeaf(leaves []markdown.PlacedLeaf, p fyne.Position) int {
	best, bestD := 0, float32(-1)
	for k, l := range leaves {
		s := l.Leaf.Size()
		dy := float32(0)
		switch {
		case p.Y < l.Pos.Y:
			dy = l.Pos.Y - p.Y
		case p.Y >= l.Pos.Y+s.Height:
			dy = p.Y - (l.Pos.Y + s.Height) + 1
		}
		dx := float32(0)
		switch {
		case p.X < l.Pos.X:
			dx = l.Pos.X - p.X
		case p.X > l.Pos.X+s.Width:
			dx = p.X - (l.Pos.X + s.Width)
		}
		if d := dy*1000 + dx; bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// selectFrom starts a selection at a point of the content.
func (cv *ChatView) selectFrom(p fyne.Position) {
	pt, ok := cv.pointAt(p)
	if !ok {
		cv.ClearSelection()
		return
	}
	cv.sel = chatSelection{anchor: pt, focus: pt, active: true}
	cv.drawSelection()
	cv.selectionStarted()
}

func (cv *ChatView) selectionStarted() {
	if cv.OnSelectStart != nil {
		cv.OnSelectStart()
	}
}

// selectTo moves the selection's end to a point of the content.
func (cv *ChatView) selectTo(p fyne.Position) {
	if !cv.sel.active {
		return
	}
	pt, ok := cv.pointAt(p)
	if !ok || pt == cv.sel.focus {
		return
	}
	cv.sel.focus = pt
	cv.drawSelection()
}

// selectWordAt selects the word at a point, or the whole piece of text
// (a paragraph, a code block) when whole.
func (cv *ChatView) selectWordAt(p fyne.Position, whole bool) {
	pt, ok := cv.pointAt(p)
	if !ok {
		return
	}
	text := cv.leafText(pt)
	a, b := 0, len(text)
	if !whole {
		a, b = wordAround(text, pt.off)
	}
	cv.sel = chatSelection{anchor: selPoint{pt.id, pt.leaf, a}, focus: selPoint{pt.id, pt.leaf, b}, active: true}
	cv.drawSelection()
	cv.selectionStarted()
}

// SelectEntry selects all the text of the entry at a point of the content.
func (cv *ChatView) selectEntryAt(p fyne.Position) {
	pt, ok := cv.pointAt(p)
	if !ok {
		return
	}
	v := cv.viewFor(&cv.items[cv.ids[pt.id]])
	leaves := leavesOf(v)
	last := len(leaves) - 1
	cv.sel = chatSelection{anchor: selPoint{pt.id, 0, 0},
		focus: selPoint{pt.id, last, len(leaves[last].Leaf.SelText())}, active: true}
	cv.drawSelection()
	cv.selectionStarted()
}

func (cv *ChatView) leafText(pt selPoint) string {
	i, ok := cv.ids[pt.id]
	if !ok {
		return ""
	}
	leaves := leavesOf(cv.viewFor(&cv.items[i]))
	if pt.leaf >= len(leaves) {
		return ""
	}
	return leaves[pt.leaf].Leaf.SelText()
}

// wordAround is the word (letters, digits, underscores) around byte at of
// text, or the one character there when it is none of those.
func wordAround(text string, at int) (int, int) {
	isWord := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	at = min(max(at, 0), len(text))
	a, b := at, at
	for a > 0 {
		r, n := utf8.DecodeLastRuneInString(text[:a])
		if !isWord(r) {
			break
		}
		a -= n
	}
	for b < len(text) {
		r, n := utf8.DecodeRuneInString(text[b:])
		if !isWord(r) {
			break
		}
		b += n
	}
	if a == b && b < len(text) {
		_, n := utf8.DecodeRuneInString(text[b:])
		b += n
	}
	return a, b
}

// SelectedText is the selected text: the pieces of each entry one per
// line, entries apart by a blank line.
func (cv *ChatView) SelectedText() string {
	if !cv.HasSelection() {
		return ""
	}
	from, to := cv.ordered()
	var b strings.Builder
	for i := cv.ids[from.id]; i <= cv.ids[to.id] && i < len(cv.items); i++ {
		id := cv.items[i].ID
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		wrote := false
		for k, l := range leavesOf(cv.viewFor(&cv.items[i])) {
			text := l.Leaf.SelText()
			x, y := cv.leafRange(id, i, k, len(text), from, to)
			if x >= y {
				continue
			}
			if wrote {
				b.WriteByte('\n')
			}
			b.WriteString(text[x:y])
			wrote = true
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// CopySelection puts the selected text on the clipboard, reporting whether
// there was any.
func (cv *ChatView) CopySelection() bool {
	text := cv.SelectedText()
	if text == "" {
		return false
	}
	if a := fyne.CurrentApp(); a != nil {
		a.Clipboard().SetContent(text)
	}
	return true
}
