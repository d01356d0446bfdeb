package app

import (
	"context"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/sessions"
)

// openTree is the tree dialog while it is open, with the last entry shown,
// so new entries are fetched with get_entries' cursor, not the whole tree.
type openTree struct {
	view   *sessions.SessionTree
	lastID string
	depth  map[string]int
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
	model.Ask(p.controller, model.CallTimeout, p.controller.Tree, func(t model.Tree, err error) {
		if err != nil {
			p.showError(err)
			return
		}
		rows := t.Rows
		ot.depth = map[string]int{}
		for _, r := range rows {
			ot.depth[r.ID] = r.Depth
		}
		if n := len(rows); n > 0 {
			ot.lastID = t.LastID
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
	since := func(ctx context.Context) ([]model.TreeRow, error) { return p.controller.TreeRowsSince(ctx, after) }
	model.Ask(p.controller, model.CallTimeout, since, func(rows []model.TreeRow, err error) {
		if err != nil || len(rows) == 0 || p.tree != ot {
			return
		}
		for i := range rows {
			r := &rows[i]
			r.Depth = ot.depth[r.ParentID]
			ot.depth[r.ID] = r.Depth
			r.OnActiveBranch = true
			ot.lastID = r.ID
		}
		rows[len(rows)-1].IsLeaf = true
		ot.view.AppendRows(rows)
	})
}
