package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
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
	written := make(chan string, 1)
	c.ExportHTML(out, func(p string) { written <- p })
	p := <-written
	if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), "first prompt") {
		t.Fatalf("export %s: %v", p, err)
	}

	answer := make(chan string, 1)
	c.LastAnswer(func(text string) { answer <- text })
	if a := <-answer; a == "" {
		t.Fatal("empty last answer")
	}

	tree, leaf, err := c.Tree(ctx)
	if err != nil || len(tree) == 0 || leaf == "" {
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
	c, s, _ := startController(t)
	c.ExportHTML(filepath.Join(t.TempDir(), "x.html"), func(string) { t.Error("exported an in-memory session") })
	testsupport.Eventually(t, "explanation", func() bool { return strings.Contains(lastItem(s).Text, "not saved to a file") })
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
