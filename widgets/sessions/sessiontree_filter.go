package sessions

import (
	"strings"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/widgets/kit"
)

// The tree's filter: words that must all appear in an entry's text or
// label, and "My prompts only". While it filters, the tree is a flat list
// of the matching entries (branch lines would join rows that are not
// next to each other); clearing it brings the tree back with the
// selection kept.

// treeFilterEntry is the filter's field: Down and Enter go into the list.
type treeFilterEntry struct {
	kit.DialogEntry
	t *SessionTree
}

func newTreeFilterEntry(t *SessionTree, keys *kit.DialogKeys) *treeFilterEntry {
	e := &treeFilterEntry{t: t}
	e.Keys = keys
	e.SetPlaceHolder("Filter entries")
	e.ExtendBaseWidget(e)
	return e
}

func (e *treeFilterEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyDown, fyne.KeyPageDown, fyne.KeyReturn, fyne.KeyEnter:
		e.t.enterList()
		return
	}
	e.DialogEntry.TypedKey(ev)
}

// enterList puts the keyboard in the list, on its first row when nothing
// is selected.
func (t *SessionTree) enterList() {
	if t.count() == 0 {
		return
	}
	if t.list.Sel < 0 {
		t.list.SelectRow(0)
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(t); c != nil {
		c.Focus(t.list)
	}
}

// SetFilter shows only the entries whose text or label has every word of
// query, and only the user's prompts when mineOnly; an empty query and
// false show the whole tree.
func (t *SessionTree) SetFilter(query string, mineOnly bool) {
	if t.filter.Text != query {
		t.filter.SetText(query) // comes back here through OnChanged
		if t.mine.Checked == mineOnly {
			return
		}
	}
	if t.mine.Checked != mineOnly {
		t.mine.SetChecked(mineOnly)
		return
	}
	t.applyFilter()
}

func (t *SessionTree) applyFilter() {
	keep := ""
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	terms := strings.Fields(strings.ToLower(t.filter.Text))
	mine := t.mine.Checked
	t.filtering = len(terms) > 0 || mine
	t.shown = t.shown[:0]
	if t.filtering {
		for i, r := range t.rows {
			if mine && r.Kind != "user" {
				continue
			}
			hay := strings.ToLower(r.Text + "\n" + r.Label)
			all := true
			for _, w := range terms {
				if !strings.Contains(hay, w) {
					all = false
					break
				}
			}
			if all {
				t.shown = append(t.shown, i)
			}
		}
	}
	sel := -1
	for id := 0; id < t.count(); id++ {
		if t.rows[t.at(id)].ID == keep && keep != "" {
			sel = id
		}
	}
	t.list.Reset(sel)
	if sel < 0 && !t.filtering && t.leaf >= 0 {
		t.list.ScrollTo(t.leaf)
	}
	t.updateEmpty()
	t.updateFork()
}

// count is how many rows the list shows.
func (t *SessionTree) count() int {
	if t.filtering {
		return len(t.shown)
	}
	return len(t.rows)
}

// at is the entry shown at list row id.
func (t *SessionTree) at(id int) int {
	if t.filtering {
		return t.shown[id]
	}
	return id
}
