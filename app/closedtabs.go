package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"knightcode.ai/desktop/app/drafts"
	"knightcode.ai/desktop/model"
)

// closedTabs are the recently closed tabs, as a browser keeps them:
// Ctrl+Shift+T reopens the last one, "Recently closed tabs…" lists them.
// A tab closed with an unsent draft is in the drafts keeper (so it is
// there after a restart too); one closed without is remembered for this
// run only. It runs on the UI goroutine.
type closedTabs struct {
	w *Window
	// run are the tabs closed in this run, oldest first.
	run []closedTab
}

// closedTab is a tab to reopen: how, and its draft's ID in the keeper
// ("" when it had none).
type closedTab struct {
	saved   savedTab
	title   string
	draftID string
	at      time.Time
}

// maxClosedTabs bounds the list, as browsers do.
const maxClosedTabs = 25

// add remembers t, closing; hadDraft says its draft went to the keeper.
func (c *closedTabs) add(t *Tab, hadDraft bool) {
	ct := closedTab{saved: t.savedTab(), title: t.label(), at: time.Now()}
	if hadDraft {
		ct.draftID = t.draft.id
	}
	c.run = append(c.run, ct)
	if len(c.run) > maxClosedTabs {
		c.run = slices.Delete(c.run, 0, len(c.run)-maxClosedTabs)
	}
}

// list is every tab that can be reopened, newest first: this run's and
// the closed drafts of earlier runs.
func (c *closedTabs) list() []closedTab {
	out := slices.Clone(c.run)
	slices.Reverse(out)
	seen := map[string]bool{}
	for _, ct := range out {
		seen[ct.draftID] = true
	}
	if k := c.w.drafts; k != nil {
		for _, d := range k.Kept() {
			if !d.Closed || seen[d.ID] {
				continue
			}
			var s savedTab
			if json.Unmarshal(d.Reopen, &s) != nil {
				continue
			}
			out = append(out, closedTab{saved: s, title: d.Title, draftID: d.ID, at: d.Updated})
		}
	}
	slices.SortStableFunc(out, func(a, b closedTab) int { return b.at.Compare(a.at) })
	if len(out) > maxClosedTabs {
		out = out[:maxClosedTabs]
	}
	return out
}

// reopenLast is Ctrl+Shift+T.
func (c *closedTabs) reopenLast() {
	l := c.list()
	if len(l) == 0 {
		c.w.current.toasts.Show("No closed tab to reopen.", model.NoticeInfo)
		return
	}
	c.reopen(l[0])
}

// reopen opens ct again in front, with its draft.
func (c *closedTabs) reopen(ct closedTab) {
	c.run = slices.DeleteFunc(c.run, func(x closedTab) bool { return x.at.Equal(ct.at) && x.title == ct.title })
	var kept *drafts.Draft
	if ct.draftID != "" && c.w.drafts != nil {
		if d, ok := c.w.drafts.Take(ct.draftID); ok {
			d.Closed = false
			kept = &d
		}
	}
	c.w.openSaved(ct.saved, true, kept)
}

// choose lists the closed tabs in the palette, to pick one to reopen.
func (c *closedTabs) choose(t *Tab) {
	l := c.list()
	if len(l) == 0 {
		t.toasts.Show("No closed tab to reopen.", model.NoticeInfo)
		return
	}
	items := make([]model.PaletteItem, len(l))
	byID := map[string]closedTab{}
	for i, ct := range l {
		id := fmt.Sprintf("closed:%d", i)
		items[i] = model.PaletteItem{ID: id, Title: ct.title, Detail: closedDetail(ct), Source: "closed"}
		byID[id] = ct
	}
	t.commands.palette.SetItems(items)
	t.commands.palette.SetRecent(nil) // newest closed first, as listed
	t.commands.palette.OnRun = func(it model.PaletteItem) {
		if ct, ok := byID[it.ID]; ok {
			c.reopen(ct)
		}
	}
	t.commands.palette.Show(t.win.Canvas())
}

// closedDetail says when ct was closed and what draft it holds.
func closedDetail(ct closedTab) string {
	parts := []string{"closed " + ct.at.Local().Format("Mon 2 Jan 15:04")}
	if ct.draftID != "" {
		parts = append(parts, "with an unsent draft")
	}
	return strings.Join(parts, ", ")
}
