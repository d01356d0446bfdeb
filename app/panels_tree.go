package app

import (
	"context"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/widgets/sessions"
)

// openTree is the tree dialog while it is open, with the last entry shown,
// so new entries are fetched with get_entries' cursor, not the whole tree.
type openTree struct {
	view   *sessions.SessionTree
	lastID string
	depth  map[string]int
}

// lastAppended finds the newest entry of a tree by timestamp order of the
// file: the session's append order ends at the newest timestamp.
func lastAppended(roots []rpcconn.TreeNode) string {
	newest, id := "", ""
	stack := make([]*rpcconn.TreeNode, 0, len(roots))
	for i := range roots {
		stack = append(stack, &roots[i])
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Entry.Timestamp >= newest {
			newest, id = n.Entry.Timestamp, n.Entry.ID
		}
		for i := range n.Children {
			stack = append(stack, &n.Children[i])
		}
	}
	return id
}

// actionTree shows the session as a tree; fork from any user message.
func (p *sessionPanels) actionTree() {
	if !p.needAgent() {
		return
	}
	k := newKeyDialog(p.win, p.modals)
	t := sessions.NewSessionTree()
	t.OnFork = func(entryID string) {
		k.Close()
		p.controller.Fork(entryID)
	}
	t.OnClose = k.Cancel
	k.onClosed = func() { p.tree = nil }
	k.build("Session tree", t)
	k.Resize(fyne.NewSize(760, 560))
	k.Show()
	p.tree = &openTree{view: t}
	p.refreshTree(p.tree)
}

func (p *sessionPanels) refreshTree(ot *openTree) {
	type tree struct {
		roots []rpcconn.TreeNode
		leaf  string
	}
	ask := func(ctx context.Context) (tree, error) {
		roots, leaf, err := p.controller.Tree(ctx)
		return tree{roots, leaf}, err
	}
	model.Ask(p.controller, model.CallTimeout, ask, func(t tree, err error) {
		if err != nil {
			p.showError(err)
			return
		}
		rows := treeRows(t.roots, t.leaf)
		ot.depth = map[string]int{}
		for _, r := range rows {
			ot.depth[r.ID] = r.Depth
		}
		if n := len(rows); n > 0 {
			ot.lastID = lastAppended(t.roots)
		}
		ot.view.SetRows(rows)
		ot.view.Focus(p.win.Canvas())
	})
}

// followTree appends the entries added since the tree was drawn.
func (p *sessionPanels) followTree() {
	ot := p.tree
	if ot == nil || ot.lastID == "" || p.controller == nil {
		return
	}
	after := ot.lastID
	since := func(ctx context.Context) ([]rpcconn.Entry, error) { return p.controller.EntriesSince(ctx, after) }
	model.Ask(p.controller, model.CallTimeout, since, func(entries []rpcconn.Entry, err error) {
		if err != nil || len(entries) == 0 || p.tree != ot {
			return
		}
		rows := make([]model.TreeRow, 0, len(entries))
		for _, e := range entries {
			r := entryRow(e)
			r.Depth = ot.depth[r.ParentID]
			ot.depth[r.ID] = r.Depth
			r.OnActiveBranch = true
			rows = append(rows, r)
			ot.lastID = e.ID
		}
		rows[len(rows)-1].IsLeaf = true
		ot.view.AppendRows(rows)
	})
}
