package widgets

import "knightcode.ai/desktop/model"

// treeMaxIndent caps indentation: a session forked inside forks dozens of
// times would otherwise push its text off the panel. Deeper rows line up
// at the cap and their guides stop there.
const treeMaxIndent = 16

// treeGuide is how the branch lines cross one row of the tree.
type treeGuide struct {
	rails  uint32 // bit k: a line runs through column k from top to bottom
	elbow  int8   // the column of this row's branch elbow, -1 for none
	tee    bool   // the elbow's line carries on down to a later sibling
	down   bool   // a line leaves this row's icon down to its first branch
	indent int8   // columns of indentation
}

// treeGuides works out the guides row by row as rows are appended, so
// entries that arrive later cost only their own rows plus, when one opens
// a new branch, the rows its line has to cross.
//
// A row starts a branch when it sits deeper than its parent; its elbow is
// in the parent's column. Each branch start draws a line up to the
// previous branch of the same parent (or to the parent itself), so no row
// needs to know what comes after it.
type treeGuides struct {
	g          []treeGuide
	index      map[string]int // entry id → row
	lastBranch map[string]int // parent id → its latest branch start row
}

func (t *treeGuides) reset(capacity int) {
	t.g = make([]treeGuide, 0, capacity)
	t.index = make(map[string]int, capacity)
	t.lastBranch = map[string]int{}
}

// add works out the guide of rows[i], appended after the rows before it.
func (t *treeGuides) add(rows []model.TreeRow, i int) {
	r := rows[i]
	g := treeGuide{elbow: -1, indent: int8(min(max(r.Depth, 0), treeMaxIndent))}
	if r.ID != "" {
		t.index[r.ID] = i
	}
	p, ok := t.index[r.ParentID]
	if col := r.Depth - 1; ok && r.ParentID != "" && p < i && col >= rows[p].Depth && col < treeMaxIndent {
		g.elbow = int8(col)
		from := p + 1
		if prev, ok := t.lastBranch[r.ParentID]; ok {
			t.g[prev].tee = true
			from = prev + 1
		} else if rows[p].Depth == col {
			t.g[p].down = true
		}
		for j := from; j < i; j++ {
			if rows[j].Depth > col {
				t.g[j].rails |= 1 << col
			}
		}
		t.lastBranch[r.ParentID] = i
	}
	t.g = append(t.g, g)
}
