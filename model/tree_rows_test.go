package model

import (
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

func node(id, role, text string, children ...rpcconn.TreeNode) rpcconn.TreeNode {
	return rpcconn.TreeNode{Entry: rpcconn.Entry{Type: "message", ID: id,
		Message: &rpcconn.Message{Role: role, Content: rpcconn.Content{{Type: "text", Text: text}}}}, Children: children}
}

func TestTreeRowsIndentOnlyAtBranches(t *testing.T) {
	tree := []rpcconn.TreeNode{
		node("u1", "user", "first",
			node("a1", "assistant", "answer",
				node("u2", "user", "try A", node("a2", "assistant", "A")),
				node("u3", "user", "try B", node("a3", "assistant", "B")),
			),
		),
	}
	tree[0].Children[0].Children[1].Label = "better"
	rows := treeRows(tree, "a3")
	want := []struct {
		id     string
		depth  int
		active bool
	}{{"u1", 0, true}, {"a1", 0, true}, {"u2", 1, false}, {"a2", 1, false}, {"u3", 1, true}, {"a3", 1, true}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, w := range want {
		r := rows[i]
		if r.ID != w.id || r.Depth != w.depth || r.OnActiveBranch != w.active {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	if !rows[5].IsLeaf || rows[4].Label != "better" || rows[0].Kind != "user" || rows[0].Text != "first" {
		t.Fatalf("rows %+v", rows)
	}
}

// TestTreeRowsShowWordsNotMarkdown: replies and summaries in the tree read
// as text: no heading hashes, emphasis stars or code ticks.
func TestTreeRowsShowWordsNotMarkdown(t *testing.T) {
	reply := entryRow(rpcconn.Entry{Type: "message", ID: "a", Message: &rpcconn.Message{Role: "assistant",
		Content: rpcconn.Content{{Type: "text", Text: "## Plan\n\nUse **the list** and `draw` lines"}}}})
	summary := entryRow(rpcconn.Entry{Type: "compaction", ID: "c", Summary: "# Goal\n\n> fix the **leak**"})
	for _, r := range []string{reply.Text, summary.Text} {
		if strings.ContainsAny(r, "#*`>") {
			t.Errorf("row text %q shows markdown", r)
		}
	}
	if reply.Text != "Plan Use the list and draw lines" || summary.Text != "Goal fix the leak" {
		t.Errorf("rows %q, %q", reply.Text, summary.Text)
	}
}

// TestLastAppendedIsTheNewestEntry: new entries follow the one appended
// last, which may sit on a branch that is not the last in tree order.
func TestLastAppendedIsTheNewestEntry(t *testing.T) {
	tree := []rpcconn.TreeNode{
		node("u1", "user", "first",
			node("a1", "assistant", "answer", node("u2", "user", "try A"), node("u3", "user", "try B"))),
	}
	stamps := []*rpcconn.Entry{&tree[0].Entry, &tree[0].Children[0].Entry, &tree[0].Children[0].Children[0].Entry, &tree[0].Children[0].Children[1].Entry}
	for i, s := range []string{"2025-01-01T00:00:01Z", "2025-01-01T00:00:02Z", "2025-01-01T00:00:09Z", "2025-01-01T00:00:05Z"} {
		stamps[i].Timestamp = s
	}
	if got := lastAppended(tree); got != "u2" {
		t.Fatalf("last appended %q, want u2", got)
	}
	if got := lastAppended(nil); got != "" {
		t.Fatalf("last appended of no tree %q", got)
	}
}

// pi 1.6's system message has empty content: its row is named, not blank.
func TestTreeRowsNameTheSystemPrompt(t *testing.T) {
	sys := rpcconn.TreeNode{Entry: rpcconn.Entry{Type: "message", ID: "s0",
		Message: &rpcconn.Message{Role: rpcconn.RoleSystem}}, Children: []rpcconn.TreeNode{node("u1", "user", "hi")}}
	rows := treeRows([]rpcconn.TreeNode{sys}, "u1")
	if len(rows) != 2 || rows[0].Kind != rpcconn.RoleSystem || rows[0].Text != SystemPromptRowText {
		t.Fatalf("rows %+v", rows)
	}
}
