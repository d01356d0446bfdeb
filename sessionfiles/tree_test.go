package sessionfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

// renderSessionTree writes a tree as id[label](children) with roots split by " | ".
func renderSessionTree(nodes []rpcconn.TreeNode) string {
	var b strings.Builder
	var walk func([]rpcconn.TreeNode, string)
	walk = func(nodes []rpcconn.TreeNode, sep string) {
		for i, n := range nodes {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(n.Entry.ID)
			if n.Label != "" {
				b.WriteString("[" + n.Label + "]")
			}
			if len(n.Children) > 0 {
				b.WriteString("(")
				walk(n.Children, " ")
				b.WriteString(")")
			}
		}
	}
	walk(nodes, " | ")
	return b.String()
}

func sessionFixture(name string) string { return filepath.Join("testdata", "sessions", name) }

func TestReadSessionTreeBranches(t *testing.T) {
	tree, leaf, err := ReadTree(sessionFixture("branches.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := "m1(u1(a1(u2[approach A](a2) b1(m2(u3(a3[good](l1(l2(l3(l4(l5(s1(s2))))))))))))) | o1(c1)"
	if got := renderSessionTree(tree); got != want {
		t.Errorf("tree:\n got %s\nwant %s", got, want)
	}
	if leaf != "c1" {
		t.Errorf("leaf = %q, want c1 (the last entry appended)", leaf)
	}
	u2 := tree[0].Children[0].Children[0].Children[0]
	if u2.LabelTimestamp != "2025-01-02T10:00:10.000Z" || u2.Entry.Message == nil || u2.Entry.Message.Content.Text() != "Try approach A" {
		t.Errorf("u2 = %+v", u2)
	}
	if len(u2.Entry.Raw) == 0 || u2.Children[0].Children == nil {
		t.Error("entries keep their raw JSON, and leaves have empty (not nil) children, as get_tree sends")
	}
}

func TestReadEntriesSince(t *testing.T) {
	path := sessionFixture("branches.jsonl")
	ids := func(es []rpcconn.Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	all, err := ReadEntriesSince(path, "")
	if err != nil || len(all) != 18 || all[0].ID != "m1" {
		t.Fatalf("all entries: %v, %v", ids(all), err)
	}
	got, err := ReadEntriesSince(path, "l5")
	if err != nil || !slices.Equal(ids(got), []string{"s1", "s2", "o1", "c1"}) {
		t.Errorf("since l5: %v, %v", ids(got), err)
	}
	if got, err := ReadEntriesSince(path, "c1"); err != nil || len(got) != 0 {
		t.Errorf("since the leaf: %v, %v", ids(got), err)
	}
	if _, err := ReadEntriesSince(path, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown since: %v", err)
	}
}

func TestReadSessionTreeDamagedFiles(t *testing.T) {
	for _, c := range []struct{ file, tree, leaf string }{
		{"truncated.jsonl", "t1(t2)", "t2"},
		{noHeaderFixture, "h1(h2)", "h2"},
		{"bad-line.jsonl", "b1(b2)", "b2"},
		{"legacy-v1.jsonl", "v1-1(v1-2(v1-3))", "v1-3"},
	} {
		tree, leaf, err := ReadTree(sessionFixture(c.file))
		if err != nil || renderSessionTree(tree) != c.tree || leaf != c.leaf {
			t.Errorf("%s: %s, leaf %q, %v; want %s, leaf %s", c.file, renderSessionTree(tree), leaf, err, c.tree, c.leaf)
		}
	}
	legacy, _ := ReadEntriesSince(sessionFixture("legacy-v1.jsonl"), "v1-2")
	if len(legacy) != 1 || legacy[0].Message.Role != rpcconn.RoleCustom {
		t.Errorf("the v1 hookMessage role is not custom: %+v", legacy)
	}
	for _, f := range []string{"garbage.jsonl", "empty.jsonl", "other-tool.jsonl", "missing.jsonl"} {
		if tree, _, err := ReadTree(sessionFixture(f)); err == nil {
			t.Errorf("%s: no error, tree %s", f, renderSessionTree(tree))
		}
	}
}

// TestReadSessionTreeShapes: children oldest first whatever the append
// order, a self-parent and a parent cycle (which pi would drop) kept as
// roots, and a chain far deeper than a recursive build would like.
func TestReadSessionTreeShapes(t *testing.T) {
	entry := func(id, parent, ts string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return fmt.Sprintf(`{"type":"custom","id":%q,"parentId":%s,"timestamp":"2025-01-01T00:00:%s.000Z","customType":"x"}`, id, p, ts)
	}
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}`,
		entry("r", "", "01"), entry("late", "r", "09"), entry("early", "r", "02"),
		entry("self", "self", "03"), entry("x", "y", "04"), entry("y", "x", "05"),
	}
	path := filepath.Join(t.TempDir(), "shapes.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, leaf, err := ReadTree(path)
	if got, want := renderSessionTree(tree), "r(early late) | self | x(y)"; err != nil || got != want || leaf != "y" {
		t.Errorf("tree %s, leaf %q, %v; want %s, leaf y", got, leaf, err, want)
	}

	const depth = 20000
	var b strings.Builder
	b.WriteString(lines[0] + "\n")
	for i := range depth {
		parent := ""
		if i > 0 {
			parent = fmt.Sprint(i - 1)
		}
		b.WriteString(entry(fmt.Sprint(i), parent, "01") + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, leaf, err = ReadTree(path)
	if err != nil || len(tree) != 1 || leaf != fmt.Sprint(depth-1) {
		t.Fatalf("deep chain: %d roots, leaf %q, %v", len(tree), leaf, err)
	}
	n := 1
	for node := tree[0]; len(node.Children) == 1; node = node.Children[0] {
		n++
	}
	if n != depth {
		t.Errorf("deep chain has %d levels, want %d", n, depth)
	}
}
