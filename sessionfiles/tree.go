package sessionfiles

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// ReadSessionTree builds the entry tree of a session file the way pi's
// get_tree does, for agents too old to answer it: entries linked by
// id/parentId, children oldest first, labels from label entries (the last
// one for a target wins, an empty one clears it), and entries whose parent
// is missing as extra roots. The leaf is the last entry in the file: where
// the agent continues when it opens the file.
func ReadTree(path string) ([]rpcconn.TreeNode, string, error) {
	entries, err := readSessionEntries(path)
	if err != nil {
		return nil, "", err
	}
	leaf := ""
	if len(entries) > 0 {
		leaf = entries[len(entries)-1].ID
	}
	return buildSessionTree(entries), leaf, nil
}

// ReadEntriesSince returns the entries after the one with id since, in the
// order they were appended (all of them when since is empty), as get_entries
// does.
func ReadEntriesSince(path, since string) ([]rpcconn.Entry, error) {
	entries, err := readSessionEntries(path)
	if err != nil {
		return nil, err
	}
	if since == "" {
		return entries, nil
	}
	i := slices.IndexFunc(entries, func(e rpcconn.Entry) bool { return e.ID == since })
	if i < 0 {
		return nil, fmt.Errorf("entry %s is not in session %s", since, path)
	}
	return entries[i+1:], nil
}

// readSessionEntries decodes every entry after the header. Lines that do
// not decode, a cut-off last one included, are left out, as pi leaves them
// out when it loads a file. Entries of version 1 files, which had no ids,
// get ids and a linear chain the way pi's migration gives them.
func readSessionEntries(path string) ([]rpcconn.Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lines := newSessionLines(f)
	var entries []rpcconn.Entry
	header := false
	for first := true; ; first = false {
		head, whole, err := lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if first {
			if reason := notJSONLines(head); reason != "" {
				return nil, fmt.Errorf("%s: %s", path, reason)
			}
		}
		line := head
		if !whole {
			if line, err = lines.rest(); err != nil {
				return nil, err
			}
		}
		var e rpcconn.Entry
		if json.Unmarshal(line, &e) != nil || e.Type == "" {
			continue
		}
		if e.Type == "session" {
			header = header || len(entries) == 0
			continue
		}
		entries = append(entries, e)
	}
	if !header && len(entries) == 0 {
		return nil, fmt.Errorf("%s: no session entries", path)
	}
	migrateEntries(entries)
	return entries, nil
}

// migrateEntries does in memory what pi's load-time migration writes back
// to the file (this reader never writes): ids for entries without one, each
// the child of the entry before, and the hookMessage role renamed custom.
func migrateEntries(entries []rpcconn.Entry) {
	for i := range entries {
		e := &entries[i]
		if e.ID == "" {
			e.ID = fmt.Sprintf("v1-%d", i+1)
			if e.ParentID == nil && i > 0 {
				parent := entries[i-1].ID
				e.ParentID = &parent
			}
		}
		if e.Message != nil && e.Message.Role == "hookMessage" {
			e.Message.Role = rpcconn.RoleCustom
		}
	}
}

// buildSessionTree links entries into trees without recursion, so a session
// of many thousand turns (one long chain) cannot exhaust the stack. Entries
// caught in a parent cycle, which pi would drop, become roots too.
func buildSessionTree(entries []rpcconn.Entry) []rpcconn.TreeNode {
	type label struct{ text, at string }
	labels := map[string]label{}
	index := make(map[string]int, len(entries))
	for i, e := range entries {
		if _, dup := index[e.ID]; !dup {
			index[e.ID] = i
		}
		if e.Type == "label" {
			if e.Label != "" {
				labels[e.TargetID] = label{e.Label, e.Timestamp}
			} else {
				delete(labels, e.TargetID)
			}
		}
	}

	children := make([][]int, len(entries))
	var roots []int
	for i, e := range entries {
		p, ok := -1, false
		if e.ParentID != nil && *e.ParentID != e.ID {
			p, ok = index[*e.ParentID]
		}
		if ok && p != i {
			children[p] = append(children[p], i)
		} else {
			roots = append(roots, i)
		}
	}
	stamps := make([]time.Time, len(entries))
	for i, e := range entries {
		stamps[i], _ = time.Parse(time.RFC3339Nano, e.Timestamp)
	}
	for _, c := range children {
		slices.SortStableFunc(c, func(a, b int) int { return stamps[a].Compare(stamps[b]) })
	}

	visited := make([]bool, len(entries))
	claimed := make([][]int, len(entries))
	built := make([]rpcconn.TreeNode, len(entries))
	build := func(root int) rpcconn.TreeNode {
		type frame struct{ node, next int }
		visited[root] = true
		stack := []frame{{root, 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(children[top.node]) {
				c := children[top.node][top.next]
				top.next++
				if !visited[c] {
					visited[c] = true
					claimed[top.node] = append(claimed[top.node], c)
					stack = append(stack, frame{c, 0})
				}
				continue
			}
			i := top.node
			stack = stack[:len(stack)-1]
			n := rpcconn.TreeNode{Entry: entries[i], Children: make([]rpcconn.TreeNode, 0, len(claimed[i]))}
			if l, ok := labels[entries[i].ID]; ok {
				n.Label, n.LabelTimestamp = l.text, l.at
			}
			for _, c := range claimed[i] {
				n.Children = append(n.Children, built[c])
				built[c] = rpcconn.TreeNode{}
			}
			built[i] = n
		}
		return built[root]
	}

	var out []rpcconn.TreeNode
	for _, r := range roots {
		out = append(out, build(r))
	}
	for i := range entries {
		if !visited[i] {
			out = append(out, build(i))
		}
	}
	return out
}
