package chat

import (
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
)

// Find searches the transcript as the session holds it (ChatItems), never
// the drawn widgets, which exist only for what is on screen: so it covers
// a session of any length. The first match from the screen on is found at
// once and shown; all matches are counted in the background, for "3 of
// 17". On screen, every occurrence in the text shown is highlighted, the
// current one more strongly.

// findMatch is one occurrence: the ord-th in entry id.
type findMatch struct {
	id  string
	ord int
}

type findState struct {
	query   string
	matches []findMatch // all of them, once counted
	counted bool
	current int // index in matches, or -1
	cur     findMatch
	found   bool
	gen     uint64
}

// FindStatus says which match is the current one (from 1) of how many;
// total is -1 while they are being counted, and current 0 without one.
func (cv *ChatView) FindStatus() (current, total int) {
	f := &cv.find
	if !f.found {
		if f.counted || f.query == "" {
			return 0, len(f.matches)
		}
		return 0, -1
	}
	if !f.counted {
		return 0, -1
	}
	return f.current + 1, len(f.matches)
}

// Find looks for query (ignoring case), highlights it and shows the first
// match at or after the top of the screen; "" ends finding.
func (cv *ChatView) Find(query string) {
	f := &cv.find
	f.gen++
	*f = findState{query: query, current: -1, gen: f.gen}
	if query == "" || len(cv.items) == 0 {
		f.counted = true
		cv.drawSelection()
		cv.findChanged()
		return
	}
	top := cv.rows.at(float64(cv.scroll.Offset.Y))
	if ord, ok := cv.firstOnScreen(top); ok {
		f.cur, f.found = findMatch{id: cv.items[top].ID, ord: ord}, true
	}
	for k := 1; k <= len(cv.items) && !f.found; k++ {
		i := (top + k) % len(cv.items)
		if itemHas(&cv.items[i], query) {
			f.cur, f.found = findMatch{id: cv.items[i].ID}, true
		}
	}
	cv.countMatches()
	if f.found {
		cv.reveal(f.cur)
	} else {
		cv.drawSelection()
	}
	cv.findChanged()
}

// firstOnScreen is the first occurrence in entry i, the one at the top of
// the screen, that is not above the screen: a reply can be taller than
// many screens.
func (cv *ChatView) firstOnScreen(i int) (int, bool) {
	if !itemHas(&cv.items[i], cv.find.query) {
		return 0, false
	}
	v := cv.shownView(i)
	if v == nil {
		return 0, true
	}
	screenTop := cv.scroll.Offset.Y - float32(cv.rows.topOf(i))
	ord := 0
	for _, l := range leavesOf(v) {
		for _, r := range allFold(l.Leaf.SelText(), cv.find.query) {
			if l.Pos.Y+leafOffsetY(l.Leaf, r.From) >= screenTop {
				return ord, true
			}
			ord++
		}
	}
	return 0, false
}

func itemHas(it *model.ChatItem, q string) bool {
	for _, t := range searchText(it) {
		if indexFold(t, q) >= 0 {
			return true
		}
	}
	return false
}

// countMatches counts every match off the UI goroutine, over a copy of the
// texts (the strings are shared, not copied: they never change).
func (cv *ChatView) countMatches() {
	f := &cv.find
	gen, query := f.gen, f.query
	ids := make([]string, len(cv.items))
	texts := make([][]string, len(cv.items))
	for i := range cv.items {
		ids[i], texts[i] = cv.items[i].ID, searchText(&cv.items[i])
	}
	var matches []findMatch
	kit.InBackground(func() {
		for i, ts := range texts {
			n := 0
			for _, t := range ts {
				n += countFold(t, query)
			}
			for ord := 0; ord < n; ord++ {
				matches = append(matches, findMatch{id: ids[i], ord: ord})
			}
		}
	}, func() {
		if cv.find.gen != gen {
			return // the query changed meanwhile
		}
		f.matches, f.counted = matches, true
		f.current = -1
		for k, m := range matches {
			if m == f.cur {
				f.current = k
				break
			}
		}
		cv.findChanged()
	})
}

// FindNext moves to the next match, FindPrevious to the one before; both
// wrap around.
func (cv *ChatView) FindNext() { cv.Step(1) }

// FindPrevious moves to the match before the current one.
func (cv *ChatView) FindPrevious() { cv.Step(-1) }

// Step makes the match d after the current one current (d < 0: before),
// wrapping around, and shows it; with none current yet, the first (or, for
// d < 0, the last).
func (cv *ChatView) Step(d int) {
	f := &cv.find
	if !f.counted || len(f.matches) == 0 {
		return
	}
	if f.current < 0 {
		f.current = 0
		if d < 0 {
			f.current = len(f.matches) - 1
		}
	} else {
		f.current = (f.current + d + len(f.matches)) % len(f.matches)
	}
	f.cur, f.found = f.matches[f.current], true
	cv.reveal(f.cur)
	cv.findChanged()
}

func (cv *ChatView) findChanged() {
	if cv.OnFindChanged != nil {
		cv.OnFindChanged()
	}
}

// reveal scrolls a match into view, a third of the way down the screen.
func (cv *ChatView) reveal(m findMatch) {
	i, ok := cv.ids[m.id]
	if !ok {
		return
	}
	cv.follow = false
	cv.anchorID, cv.anchorDY = m.id, 0
	cv.Place()
	if y, ok := cv.occurrenceY(i, m.ord); ok {
		cv.anchorDY = float64(y) - float64(cv.scroll.Size().Height)/3
		cv.Place()
	}
}

// occurrenceY is how far into entry i its ord-th occurrence of the query,
// as shown, lies.
func (cv *ChatView) occurrenceY(i, ord int) (float32, bool) {
	q := cv.find.query
	v := cv.viewFor(&cv.items[i])
	n := 0
	var lastY float32
	seen := false
	for _, l := range leavesOf(v) {
		for _, r := range allFold(l.Leaf.SelText(), q) {
			y := l.Pos.Y + leafOffsetY(l.Leaf, r.From)
			if n == ord {
				return y, true
			}
			lastY, seen = y, true
			n++
		}
	}
	return lastY, seen
}

// leafOffsetY is the top of the line that holds byte off of a leaf.
func leafOffsetY(l markdown.Selectable, off int) float32 {
	switch t := l.(type) {
	case *markdown.TextFlow:
		if t.Layout == nil {
			return 0
		}
		for _, line := range t.Layout.Lines {
			if line.P1 > line.P0 {
				pc := &t.Layout.Pieces[line.P1-1]
				if t.PieceOffset(pc, pc.End) >= off {
					return line.Y
				}
			}
		}
	case *markdown.CodeBlock:
		for i, cl := range t.Lay.Lines {
			if cl.Off+cl.Nb >= off {
				return t.LineTop(i)
			}
		}
	case *markdown.MonoBlock:
		at := 0
		for i, line := range t.Lines {
			at += len(line) + 1
			if at > off {
				return t.LineTop(i)
			}
		}
	}
	return 0
}

// foundIn is what a leaf on screen highlights for the query: its
// occurrences, and which of them (or -1) is the current match, given that
// ord occurrences of the entry come before it.
func (cv *ChatView) foundIn(id string, l markdown.Selectable, ord int) ([]markdown.SelRange, int, int) {
	f := &cv.find
	if f.query == "" {
		return nil, -1, ord
	}
	ranges := allFold(l.SelText(), f.query)
	cur := -1
	if f.found && f.cur.id == id && f.cur.ord >= ord && f.cur.ord < ord+len(ranges) {
		cur = f.cur.ord - ord
	}
	return ranges, cur, ord + len(ranges)
}

// visibleLeaf says whether a leaf at pos in entry i reaches the screen.
func (cv *ChatView) visibleLeaf(i int, l markdown.PlacedLeaf) bool {
	top := float32(cv.rows.topOf(i)) + l.Pos.Y - cv.scroll.Offset.Y
	return top < cv.scroll.Size().Height+windowMargin && top+l.Leaf.Size().Height > -windowMargin
}
