package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
)

// paneFiles is what the changes pane lists, path → staged.
func paneFiles(w *Tab) map[string]bool {
	got := map[string]bool{}
	onUI(func() {
		for _, f := range w.right.pane.state.files {
			got[f.Path] = w.right.pane.state.staged[f.Path]
		}
	})
	return got
}

func paneIdle(w *Tab) (idle bool) {
	onUI(func() { idle = !w.right.pane.looking })
	return idle
}

// TestRealAgentChangesPane: pi edits a tracked file (two separate places)
// and writes a new one with an odd name. The changes pane (Ctrl+Shift+G)
// lists both since the session began; reverting one hunk takes only that
// change out of the file and Undo puts it back; against the last commit,
// staging a hunk and then the new file and committing with a message
// leaves the other hunk unstaged; a pre-commit hook that refuses is shown
// in its own words.
func TestRealAgentChangesPane(t *testing.T) {
	env := realPi(t, true)
	dir := env.WorkDir
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	start := strings.Join(lines, "\n") + "\n"
	const file, odd = "zebra.txt", "-new 'odd' ü.txt"
	gitRepo(t, dir, map[string]string{file: start})
	w := openWindowWith(t, Flags{Agent: env.Binary, Dir: dir, AgentArgs: env.Args})
	edited := strings.Replace(strings.Replace(start, "line 2\n", "line two\n", 1), "line 25\n", "line twenty-five\n", 1)
	// pi's edit tool, two places of the file in one call.
	typeAndSend(w, `Edit it [[tool:edit:{"path":"zebra.txt","edits":[{"oldText":"line 2\n","newText":"line two\n"},{"oldText":"line 25\n","newText":"line twenty-five\n"}]}]]`)
	testsupport.Eventually(t, "first turn", func() bool {
		return settledReply(w) && len(userMessages(w)) == 1 && readFiles(t, dir, file)[file] == edited
	})
	typeAndSend(w, `And a new one [[tool:write:{"path":`+jsonString(odd)+`,"content":"new\n"}]]`)
	testsupport.Eventually(t, "second turn", func() bool { return settledReply(w) && len(userMessages(w)) == 2 })

	onUI(func() { w.shell.runShortcut(changesShortcut) })
	testsupport.Eventually(t, "the pane lists both files", func() bool {
		f := paneFiles(w)
		return paneIdle(w) && len(f) == 2 && f != nil && hasKeys(f, file, odd)
	})
	var focused fyne.Focusable
	onUI(func() { focused = w.win.Canvas().Focused() })
	if focused != w.right.pane.files.Focusable() {
		t.Errorf("Ctrl+Shift+G left the keyboard on %T", focused)
	}

	// Revert the second hunk of zebra.txt, then undo.
	onUI(func() { w.right.pane.selectFile(file) })
	testsupport.Eventually(t, "zebra's two hunks", func() bool {
		var n int
		onUI(func() { n = len(w.right.pane.state.fileDiff.Hunks) })
		return n == 2
	})
	onUI(func() { w.right.pane.hunkAction(1, "Revert") })
	wantAfter := strings.Replace(start, "line 2\n", "line two\n", 1)
	testsupport.Eventually(t, "one hunk reverted", func() bool { return readFiles(t, dir, file)[file] == wantAfter })
	testsupport.Eventually(t, "the undo offered", func() bool {
		var shown bool
		onUI(func() { shown = w.right.pane.undoBar.Visible() })
		return shown
	})
	onUI(func() { test.Tap(findButtonIn(t, w.right.pane.undoBar, "Undo")) })
	testsupport.Eventually(t, "the revert undone", func() bool { return readFiles(t, dir, file)[file] == edited })

	// Against the last commit: stage the first hunk and the new file, commit.
	onUI(func() { w.right.pane.base.SetSelectedIndex(1) })
	testsupport.Eventually(t, "since the last commit", func() bool {
		var st paneState
		onUI(func() { st = w.right.pane.state })
		return paneIdle(w) && st.mode == modeHead && len(st.files) == 2
	})
	onUI(func() { w.right.pane.selectFile(file) })
	testsupport.Eventually(t, "zebra's unstaged hunks", func() bool {
		var n int
		onUI(func() { n = len(w.right.pane.state.fileDiff.Hunks) })
		return n == 2
	})
	onUI(func() { w.right.pane.hunkAction(0, "Stage") })
	testsupport.Eventually(t, "the hunk staged", func() bool { return paneFiles(w)[file] })
	onUI(func() { w.right.pane.selectFile(odd) })
	testsupport.Eventually(t, "the new file shown", func() bool {
		var sel string
		var n int
		onUI(func() { sel, n = w.right.pane.state.selected, len(w.right.pane.state.fileDiff.Hunks) })
		return sel == odd && n == 1
	})
	onUI(func() { w.right.pane.stageFile() })
	testsupport.Eventually(t, "the new file staged", func() bool { return paneFiles(w)[odd] })

	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	os.WriteFile(hook, []byte("#!/bin/sh\necho 'tests must pass first' >&2\nexit 1\n"), 0o755)
	onUI(func() {
		w.right.pane.commitMessage.SetText("Paint the zebra")
		w.right.pane.commit()
	})
	testsupport.Eventually(t, "the hook's refusal", func() bool { return strings.Contains(dialogSays(w), "tests must pass first") })
	press(w, fyne.KeyEscape)
	os.Remove(hook)
	onUI(func() { w.right.pane.commit() })
	testsupport.Eventually(t, "committed", func() bool {
		return strings.Contains(gitIn(t, dir, "log", "-1", "--format=%s"), "Paint the zebra")
	})
	if got := gitIn(t, dir, "show", "HEAD:"+file); got != wantAfter {
		t.Fatalf("committed zebra:\n%s", got)
	}
	if got := gitIn(t, dir, "status", "--porcelain"); got != " M zebra.txt\n" {
		t.Fatalf("after the commit: %q", got)
	}

	// The agent drafts the next message: its answer fills the box.
	onUI(func() { w.right.pane.stageFile() })
	testsupport.Eventually(t, "the rest staged", func() bool { return paneFiles(w)[file] })
	onUI(func() { w.right.pane.askDraft() })
	testsupport.Eventually(t, "the agent's draft in the box", func() bool {
		var text string
		onUI(func() { text = w.right.pane.commitMessage.Text })
		return text != "" && !drawn(w).Running
	})
	if msgs := userMessages(w); msgs[len(msgs)-1].Text != draftPrompt {
		t.Fatalf("the agent was asked %q", msgs[len(msgs)-1].Text)
	}
}

func TestCommitDraft(t *testing.T) {
	for in, want := range map[string]string{
		"Fix the parser\n\nIt dropped the last line.": "Fix the parser\n\nIt dropped the last line.",
		"```\nFix the parser\n```":                    "Fix the parser",
		"```text\nAdd tests\n```\n":                   "Add tests",
		"\"Rename the flag\"":                         "Rename the flag",
		"  ":                                          "",
	} {
		if got := commitDraft(in); got != want {
			t.Errorf("commitDraft(%q) = %q, want %q", in, got, want)
		}
	}
}

func hasKeys(m map[string]bool, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// findButtonIn finds the button labelled label in o.
func findButtonIn(t *testing.T, o fyne.CanvasObject, label string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == label {
			found = b
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, child := range c.Objects {
				walk(child)
			}
		}
	}
	walk(o)
	if found == nil {
		t.Fatalf("no %q button", label)
	}
	return found
}
