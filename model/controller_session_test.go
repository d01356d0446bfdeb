package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

func TestControllerSessionCommands(t *testing.T) {
	dir := t.TempDir()
	c, s, ui := startController(t, "--session-dir", dir)
	ctx := context.Background()
	c.Send("first prompt", nil, false, nil)
	testsupport.Eventually(t, "first reply", func() bool { v := s.View(nil); return len(v.Items) >= 2 && !v.Running })
	c.Send("second prompt", nil, false, nil)
	testsupport.Eventually(t, "second reply", func() bool { v := s.View(nil); return len(v.Items) >= 4 && !v.Running })

	c.Rename("feature work")
	testsupport.Eventually(t, "renamed", func() bool { return s.View(nil).SessionName == "feature work" })

	infos, _, err := c.Sessions(ctx, true)
	if err != nil || len(infos) == 0 {
		t.Fatalf("sessions %+v %v", infos, err)
	}

	forks, err := c.ForkMessages(ctx)
	if err != nil || len(forks) != 2 {
		t.Fatalf("fork messages %+v %v", forks, err)
	}
	c.Fork(forks[1].EntryID)
	testsupport.Eventually(t, "forked text in the editor", func() bool {
		e := ui.snapshot().editor
		return len(e) == 1 && e[0] == "second prompt"
	})
	testsupport.Eventually(t, "transcript before the fork point", func() bool { return len(s.View(nil).Items) == 2 })

	c.Clone()
	testsupport.Eventually(t, "clone notice", func() bool { return strings.Contains(lastItem(s).Text, "Cloned") })

	out := filepath.Join(t.TempDir(), "export.html")
	p, err := askNow(t, c, func(ctx context.Context) (string, error) { return c.ExportHTML(ctx, out) })
	if b, rerr := os.ReadFile(p); err != nil || rerr != nil || !strings.Contains(string(b), "first prompt") {
		t.Fatalf("export %s: %v %v", p, err, rerr)
	}

	if a, err := askNow(t, c, c.LastAnswer); a == "" || err != nil {
		t.Fatalf("last answer %q, %v", a, err)
	}

	tree, err := c.Tree(ctx)
	leaf := ""
	for _, r := range tree.Rows {
		if r.IsLeaf {
			leaf = r.ID
		}
	}
	if err != nil || len(tree.Rows) == 0 || leaf == "" || tree.LastID == "" {
		t.Fatalf("tree %+v leaf %q err %v", tree, leaf, err)
	}

	cmds, err := c.Commands(ctx)
	if err != nil || len(cmds) == 0 {
		t.Fatalf("commands %+v %v", cmds, err)
	}

	m := s.Modes()
	m.AutoCompaction = !m.AutoCompaction
	m.SteeringMode = "all"
	c.SetModes(m)
	testsupport.Eventually(t, "modes", func() bool { return s.Modes() == m })

	c.Compact("keep it short")
	testsupport.Eventually(t, "compaction in the transcript", func() bool {
		for _, it := range s.View(nil).Items {
			if it.Kind == ChatCompaction {
				return true
			}
		}
		return false
	})

	c.RunBash("seq 3")
	testsupport.Eventually(t, "bash output", func() bool {
		it := lastItem(s)
		return it.Kind == ChatBash && !it.Streaming && strings.Contains(it.Text, "3") && it.ExitCode != nil && *it.ExitCode == 0
	})

	infos, _, _ = c.Sessions(ctx, true)
	c.SwitchSession(infos[len(infos)-1].Path)
	testsupport.Eventually(t, "switched", func() bool { return s.SessionFile() == infos[len(infos)-1].Path })
}

func TestControllerExportOfInMemorySessionExplains(t *testing.T) {
	c, _, _ := startController(t)
	_, err := askNow(t, c, func(ctx context.Context) (string, error) {
		return c.ExportHTML(ctx, filepath.Join(t.TempDir(), "x.html"))
	})
	if err == nil || !strings.Contains(err.Error(), "not saved to a file") {
		t.Fatalf("exporting an in-memory session: %v", err)
	}
}

// An edited prompt branches the conversation before the original and goes
// as the new branch's first prompt; the old branch stays in the tree.
func TestControllerSendsEditedPrompt(t *testing.T) {
	c, s, _ := startController(t, "--session-dir", t.TempDir())
	ctx := context.Background()
	c.Send("first prompt", nil, false, nil)
	testsupport.Eventually(t, "first reply", func() bool { v := s.View(nil); return len(v.Items) >= 2 && !v.Running })
	c.Send("second prompt", nil, false, nil)
	testsupport.Eventually(t, "second reply", func() bool { v := s.View(nil); return len(v.Items) >= 4 && !v.Running })

	c.SendEdited(1, "second prompt", "second prompt, edited", nil, nil)
	testsupport.Eventually(t, "the edited prompt answered", func() bool {
		v := s.View(nil)
		if v.Running || len(v.Items) != 4 {
			return false
		}
		return v.Items[2].Kind == ChatUser && v.Items[2].Text == "second prompt, edited" && !v.Items[3].Streaming
	})
	// The agent's fork made a new session from the branch above the
	// prompt; the old branch stays in the session it was in.
	infos, _, err := c.Sessions(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	kept := false
	for _, in := range infos {
		b, _ := os.ReadFile(in.Path)
		if strings.Contains(string(b), `second prompt"`) && !strings.Contains(string(b), "second prompt, edited") {
			kept = true
		}
	}
	if len(infos) < 2 || !kept {
		t.Fatalf("%d sessions; the original branch kept: %v", len(infos), kept)
	}
	// The fork is named as one, after the session it came from, and its
	// file names that session as its parent.
	if name := s.View(nil).SessionName; name != "first prompt (edited)" {
		t.Fatalf("the fork is named %q", name)
	}
	var fork, parent *sessionfiles.Info
	for i := range infos {
		switch infos[i].Path {
		case s.SessionFile():
			fork = &infos[i]
		default:
			parent = &infos[i]
		}
	}
	if fork == nil || parent == nil || fork.Name != "first prompt (edited)" || fork.ParentSession != parent.Path || parent.Name != "" {
		t.Fatalf("fork %+v, parent %+v", fork, parent)
	}
}

func TestForkNameMarksEdits(t *testing.T) {
	for title, want := range map[string]string{
		"Fix it":            "Fix it (edited)",
		"Fix it (edited)":   "Fix it (edited 2)",
		"Fix it (edited 2)": "Fix it (edited 3)",
		"Why (edited x)":    "Why (edited x) (edited)",
	} {
		if got := ForkName(title); got != want {
			t.Errorf("ForkName(%q) = %q, want %q", title, got, want)
		}
	}
}

func TestForkEntryMatchesByOrderThenText(t *testing.T) {
	forks := []rpcconn.ForkMessage{{EntryID: "a", Text: "one"}, {EntryID: "b", Text: "two"}, {EntryID: "c", Text: "one"}}
	for _, c := range []struct {
		ord  int
		text string
		want string
		ok   bool
	}{{0, "one", "a", true}, {2, "one", "c", true}, {1, "one", "a", true}, {5, "two", "b", true}, {1, "three", "", false}} {
		got, ok := forkEntry(forks, c.ord, c.text)
		if got != c.want || ok != c.ok {
			t.Errorf("forkEntry(%d, %q) = %q %v, want %q %v", c.ord, c.text, got, ok, c.want, c.ok)
		}
	}
}

// askNow asks through Ask, the window's one way, and waits for the answer.
func askNow[T any](t *testing.T, c *Controller, ask func(context.Context) (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	answers := make(chan result, 1)
	Ask(c, CallTimeout, ask, func(v T, err error) { answers <- result{v, err} })
	r := <-answers
	return r.v, r.err
}

// TestControllerTreeRowsSinceFollowTheTree: the rows after the tree's last
// entry are the entries appended since, in order, each a child of the one
// before.
func TestControllerTreeRowsSinceFollowTheTree(t *testing.T) {
	c, s, _ := startController(t, "--session-dir", t.TempDir())
	ctx := context.Background()
	c.Send("first prompt", nil, false, nil)
	testsupport.Eventually(t, "first reply", func() bool { v := s.View(nil); return len(v.Items) >= 2 && !v.Running })
	tree, err := c.Tree(ctx)
	if err != nil || len(tree.Rows) == 0 || tree.LastID != tree.Rows[len(tree.Rows)-1].ID {
		t.Fatalf("tree %+v err %v", tree, err)
	}
	c.Send("second prompt", nil, false, nil)
	testsupport.Eventually(t, "second reply", func() bool { v := s.View(nil); return len(v.Items) >= 4 && !v.Running })
	rows, err := c.TreeRowsSince(ctx, tree.LastID)
	if err != nil || len(rows) < 2 {
		t.Fatalf("rows since %+v err %v", rows, err)
	}
	if rows[0].Kind != "user" || rows[0].Text != "second prompt" || rows[0].ParentID != tree.LastID || rows[1].ParentID != rows[0].ID {
		t.Fatalf("rows since %+v", rows)
	}
	if again, err := c.TreeRowsSince(ctx, rows[len(rows)-1].ID); err != nil || again != nil {
		t.Fatalf("rows after the newest %+v err %v", again, err)
	}
}
