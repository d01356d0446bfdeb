package widgets

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/model"
)

// shotNow is the clock the session pictures and masters are drawn at.
var shotNow = time.Date(2026, 3, 12, 15, 30, 0, 0, time.Local)

func sampleSessions() []model.SessionRow {
	return []model.SessionRow{
		{Path: "/s/a.jsonl", Title: "Refactor the tool sidebar so cards recycle", Subtitle: "~/src/knightcode-desktop", Modified: shotNow.Add(-4 * time.Minute), Messages: 42, Model: "claude-sonnet-4", Current: true},
		{Path: "/s/b.jsonl", Title: "fix flaky rpcconn test", Subtitle: "~/src/knightcode-desktop", Modified: shotNow.Add(-3 * time.Hour), Messages: 7, Model: "gpt-4o-mini"},
		{Path: "/s/c.jsonl", Title: "", Subtitle: "~/src/scratch", Modified: shotNow.Add(-26 * time.Hour), Messages: 1, Model: "qwen-coder"},
		{Path: "/s/d.jsonl", Title: "Write the packaging scripts for Debian, Fedora and Arch and check the desktop entry validates", Subtitle: "~/src/knightcode-desktop/packaging", Modified: shotNow.Add(-4 * 24 * time.Hour), Messages: 118, Model: "claude-opus-4"},
		{Path: "/s/e.jsonl", Title: "old experiment", Subtitle: "/tmp/exp", Modified: time.Date(2025, 11, 2, 10, 0, 0, 0, time.Local), Messages: 3, Problem: "Unknown session version 9"},
	}
}

func sampleTree() []model.TreeRow {
	at := func(m int) time.Time { return shotNow.Add(time.Duration(m-120) * time.Minute) }
	return []model.TreeRow{
		{ID: "u1", Kind: "user", Text: "Add a session browser to the desktop app", Time: at(0), OnActiveBranch: true},
		{ID: "a1", ParentID: "u1", Kind: "assistant", Text: "I'll start by reading widgets/doc.go and data.go.", Time: at(1), OnActiveBranch: true},
		{ID: "t1", ParentID: "a1", Kind: "tool", Text: "read widgets/doc.go", Time: at(1), OnActiveBranch: true},
		{ID: "a2", ParentID: "t1", Kind: "assistant", Text: "The widgets take plain data; I'll add SessionRow.", Time: at(2), OnActiveBranch: true},
		{ID: "u2", ParentID: "a2", Kind: "user", Text: "Use widget.Tree instead", Time: at(5), Depth: 1},
		{ID: "a3", ParentID: "u2", Kind: "assistant", Text: "widget.Tree builds a node per entry; it does not virtualise well.", Time: at(6), Depth: 1},
		{ID: "u3", ParentID: "a2", Kind: "user", Text: "Keep the list and draw branch lines", Label: "plan", Time: at(9), Depth: 1, OnActiveBranch: true},
		{ID: "a4", ParentID: "u3", Kind: "assistant", Text: "Done: guides are worked out per row as rows arrive.", Time: at(11), Depth: 1, OnActiveBranch: true},
		{ID: "u4", ParentID: "a4", Kind: "user", Text: "try the dark theme", Time: at(20), Depth: 2},
		{ID: "a5", ParentID: "u4", Kind: "assistant", Text: "Both variants read well.", Time: at(21), Depth: 2},
		{ID: "c1", ParentID: "a4", Kind: "compaction", Text: "Compacted 48k tokens", Time: at(30), Depth: 2, OnActiveBranch: true},
		{ID: "m1", ParentID: "c1", Kind: "model_change", Text: "Model: claude-opus-4", Time: at(31), Depth: 2, OnActiveBranch: true},
		{ID: "u5", ParentID: "m1", Kind: "user", Text: "Now write the tests, including one with five thousand rows", Time: at(32), Depth: 2, OnActiveBranch: true},
		{ID: "a6", ParentID: "u5", Kind: "assistant", Text: "Tests pass: 14 of 14.", Time: at(40), Depth: 2, OnActiveBranch: true, IsLeaf: true},
	}
}

func TestSessionShots(t *testing.T) {
	saveShots(t, "sessionbrowser", fyne.NewSize(560, 420), func() fyne.CanvasObject {
		b := NewSessionBrowser()
		b.now = func() time.Time { return shotNow }
		b.SetSessions(sampleSessions())
		return b
	})
	saveShots(t, "sessiontree", fyne.NewSize(560, 420), func() fyne.CanvasObject {
		tr := NewSessionTree()
		tr.now = func() time.Time { return shotNow }
		tr.SetRows(sampleTree())
		tr.list.Select(6)
		return tr
	})
}
