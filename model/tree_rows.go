package model

import (
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// Tree is the session tree as the tree view draws it.
type Tree struct {
	Rows []TreeRow
	// LastID is the entry appended last, after which new entries follow
	// ("" for an empty tree).
	LastID string
}

// SystemPromptRowText names the system prompt's entry in the tree.
const SystemPromptRowText = "System prompt"

// treeRows flattens a session tree for the tree view, depth first, oldest
// child first. Depth grows only where the tree branches, so a long linear
// conversation stays flush left.
func treeRows(roots []rpcconn.TreeNode, leafID string) []TreeRow {
	active := map[string]bool{}
	parents := map[string]string{}
	var index func(nodes []rpcconn.TreeNode, parent string)
	index = func(nodes []rpcconn.TreeNode, parent string) {
		for i := range nodes {
			parents[nodes[i].Entry.ID] = parent
			index(nodes[i].Children, nodes[i].Entry.ID)
		}
	}
	index(roots, "")
	for id := leafID; id != ""; id = parents[id] {
		if active[id] {
			break
		}
		active[id] = true
	}

	var rows []TreeRow
	type frame struct {
		node  *rpcconn.TreeNode
		depth int
	}
	// An explicit stack: sessions can be tens of thousands of entries deep.
	var stack []frame
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, frame{&roots[i], 0})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		row := entryRow(f.node.Entry)
		row.Label = f.node.Label
		row.Depth = f.depth
		row.OnActiveBranch = active[row.ID]
		row.IsLeaf = row.ID == leafID
		rows = append(rows, row)
		childDepth := f.depth
		if len(f.node.Children) > 1 {
			childDepth++
		}
		for i := len(f.node.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{&f.node.Children[i], childDepth})
		}
	}
	return rows
}

// entryRow describes one session entry in a line.
func entryRow(e rpcconn.Entry) TreeRow {
	row := TreeRow{ID: e.ID, Kind: e.Type}
	if e.ParentID != nil {
		row.ParentID = *e.ParentID
	}
	if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
		row.Time = t
	}
	switch e.Type {
	case "message":
		if m := e.Message; m != nil {
			row.Kind = m.Role
			switch m.Role {
			case rpcconn.RoleAssistant:
				row.Text = OneLine(Glance(m.Content.Text()), 100)
				for _, c := range m.Content {
					if c.Type == rpcconn.ContentToolCall {
						row.Kind = "tool"
						row.Text = c.Name + " " + ArgsSummary(c.Name, c.Arguments)
						break
					}
				}
			case rpcconn.RoleToolResult:
				row.Kind = "tool"
				row.Text = m.ToolName + " → " + OneLine(m.Content.Text(), 80)
			case rpcconn.RoleBashExecution:
				row.Text = "$ " + OneLine(m.Command, 100)
			case rpcconn.RoleSystem:
				// pi 1.6 stores the system prompt as a message with empty
				// content (its text is in sections).
				row.Text = SystemPromptRowText
			default:
				row.Text = OneLine(m.Content.Text(), 100)
			}
		}
	case "model_change":
		row.Text = e.Provider + "/" + e.ModelID
	case "thinking_level_change":
		row.Text = "thinking " + e.ThinkingLevel
	case "compaction", "branch_summary":
		row.Text = OneLine(Glance(e.Summary), 100)
	case "session_info":
		row.Text = "named “" + e.Name + "”"
	case "label":
		row.Text = "label “" + e.Label + "”"
	default:
		row.Text = e.CustomType
	}
	return row
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
