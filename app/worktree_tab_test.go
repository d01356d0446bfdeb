package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/remote/sshtest"
)

func tabCount(w *Tab) (n int) {
	onUI(func() { n = len(w.shell.tabs) })
	return n
}

// TestRealAgentWorktreeTab: a worktree's whole life. "New tab in a
// worktree…" makes a branch and a folder beside the repository (a name
// with a space); the new tab's pi writes a file there, the changes pane
// commits it, and closing the tab with "Merge into main" brings the file
// into the user's folder and deletes worktree and branch. A second
// worktree whose file is not committed asks before deleting it.
func TestRealAgentWorktreeTab(t *testing.T) {
	env := realPi(t, true)
	dir := filepath.Join(env.WorkDir, "my repo")
	gitRepo(t, dir, map[string]string{"a.txt": "a\n"})
	w := openWindowWith(t, Flags{Agent: env.Binary, Dir: dir, AgentArgs: env.Args})

	// branch names the dialog's first field; Enter makes the worktree.
	ask := func(branch string) {
		t.Helper()
		onUI(func() { w.actionWorktreeTab() })
		testsupport.Eventually(t, "the worktree dialog", func() bool { return dialogOpen(w) })
		onUI(func() { w.win.Canvas().Focused().(interface{ SetText(string) }).SetText(branch) })
		press(w, fyne.KeyReturn)
	}
	newWorktree := func(branch string) *Tab {
		t.Helper()
		before := tabCount(w)
		ask(branch)
		testsupport.Eventually(t, "the worktree's tab", func() bool { return tabCount(w) == before+1 })
		var nt *Tab
		onUI(func() { nt = w.shell.current })
		testsupport.Eventually(t, "its agent", func() bool {
			return nt.session.View(nil).Conn == model.ConnReady && len(nt.session.Models()) > 0
		})
		return nt
	}

	ask("agent/first try") // git refuses a space in a branch name, in its words
	testsupport.Eventually(t, "git's refusal", func() bool { return strings.Contains(dialogSays(w), "not a valid branch name") })
	press(w, fyne.KeyEscape)

	nt := newWorktree("agent/first-try")
	wtDir := filepath.Join(env.WorkDir, "my repo-worktrees", "agent-first-try")
	if nt.worktree == nil || nt.started.dir != wtDir || nt.worktree.Base != "main" {
		t.Fatalf("tab in %q, worktree %+v", nt.started.dir, nt.worktree)
	}
	var label string
	onUI(func() { label = nt.label() })
	if !strings.Contains(label, "agent/first-try") {
		t.Errorf("the tab's label does not name the branch: %q", label)
	}
	typeAndSend(nt, `Write it [[tool:write:{"path":"from agent.txt","content":"agent\n"}]]`)
	testsupport.Eventually(t, "the agent wrote in the worktree", func() bool {
		return settledReply(nt) && readFiles(t, wtDir, "from agent.txt")["from agent.txt"] == "agent\n"
	})
	if _, err := os.Stat(filepath.Join(dir, "from agent.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the agent's file is in the user's folder too")
	}
	// Commit it from the worktree tab's changes pane.
	onUI(func() { nt.actionChanges(); nt.right.pane.base.SetSelectedIndex(1) })
	testsupport.Eventually(t, "listed", func() bool { return paneIdle(nt) && hasKeys(paneFiles(nt), "from agent.txt") })
	onUI(func() { nt.right.pane.selectFile("from agent.txt") })
	onUI(func() { nt.right.pane.stageFile() })
	testsupport.Eventually(t, "staged", func() bool { return paneFiles(nt)["from agent.txt"] })
	onUI(func() { nt.right.pane.commitMessage.SetText("The agent's file"); nt.right.pane.commit() })
	testsupport.Eventually(t, "committed", func() bool {
		return strings.Contains(gitIn(t, wtDir, "log", "-1", "--format=%s"), "The agent's file")
	})

	// A tab opened in the worktree's folder by other means (reopened at
	// the next start) knows it for one of the app's.
	var again *Tab
	onUI(func() { again = w.shell.openTab(Flags{Agent: env.Binary, Dir: wtDir, AgentArgs: env.Args}, false) })
	testsupport.Eventually(t, "the reopened tab knows its worktree", func() bool {
		var wt *gitwork.Worktree
		onUI(func() { wt = again.worktree })
		return wt != nil && wt.Branch == "agent/first-try" && wt.Base == "main"
	})
	onUI(func() { w.shell.removeTab(again) })

	// Close it: merge into main.
	onUI(func() { w.shell.closeTab(nt) })
	testsupport.Eventually(t, "what becomes of the worktree", func() bool { return strings.Contains(dialogSays(nt), "on the branch agent/first-try") })
	onUI(func() { test.Tap(findButton(t, w.win, "Merge into main")) })
	testsupport.Eventually(t, "merged, the worktree gone, the tab closed", func() bool {
		if d := dialogSays(nt); d != "" {
			t.Logf("dialog: %s", d)
		}
		_, err := os.Stat(wtDir)
		return errors.Is(err, os.ErrNotExist) && tabCount(w) == 1 &&
			readFiles(t, dir, "from agent.txt")["from agent.txt"] == "agent\n"
	})
	if out := gitIn(t, dir, "branch", "--list"); strings.Contains(out, "first-try") {
		t.Fatalf("the branch is left: %s", out)
	}

	// A second one, with a file not committed: deleting asks first.
	nt = newWorktree("agent/second")
	wtDir = nt.started.dir
	os.WriteFile(filepath.Join(wtDir, "unsaved.txt"), []byte("u\n"), 0o644)
	onUI(func() { w.shell.closeTab(nt) })
	testsupport.Eventually(t, "what becomes of the worktree", func() bool { return strings.Contains(dialogSays(nt), "agent/second") })
	onUI(func() { test.Tap(findButton(t, w.win, "Delete worktree and branch")) })
	testsupport.Eventually(t, "the question about the file", func() bool { return strings.Contains(dialogSays(nt), "unsaved.txt") })
	press(w, fyne.KeyReturn) // the default is Cancel: nothing is deleted
	if _, err := os.Stat(filepath.Join(wtDir, "unsaved.txt")); err != nil || tabCount(w) != 2 {
		t.Fatalf("after Cancel: %v, %d tabs", err, tabCount(w))
	}
	onUI(func() { w.shell.closeTab(nt) })
	testsupport.Eventually(t, "asked again", func() bool { return strings.Contains(dialogSays(nt), "agent/second") })
	onUI(func() { test.Tap(findButton(t, w.win, "Delete worktree and branch")) })
	testsupport.Eventually(t, "asked about the file again", func() bool { return strings.Contains(dialogSays(nt), "unsaved.txt") })
	onUI(func() { test.Tap(findButton(t, w.win, "Delete them")) })
	testsupport.Eventually(t, "deleted", func() bool {
		_, err := os.Stat(wtDir)
		return errors.Is(err, os.ErrNotExist) && tabCount(w) == 1
	})
}

// TestRealAgentWorktreeTabOverSSH: the same over SSH (a real sshd on this
// machine): the worktree is made by the host's git beside the repository
// there, the new tab's pi works in it over SSH, and closing the tab with
// "Delete worktree and branch" deletes both on the host.
func TestRealAgentWorktreeTabOverSSH(t *testing.T) {
	env := realPi(t, false)
	srv := sshtest.Start(t, sshtest.Options{})
	srv.Exec("pi", env.Env, env.Binary)
	dir := filepath.Join(env.WorkDir, "host repo")
	gitRepo(t, dir, map[string]string{"a.txt": "a\n"})
	w := openWindowWith(t, Flags{SSH: sshtest.Alias, SSHConfig: srv.ConfigFile, Dir: dir, AgentArgs: env.Args})

	onUI(func() { w.actionWorktreeTab() })
	testsupport.Eventually(t, "the worktree dialog", func() bool { return dialogOpen(w) })
	onUI(func() { w.win.Canvas().Focused().(interface{ SetText(string) }).SetText("agent/remote-try") })
	press(w, fyne.KeyReturn)
	testsupport.Eventually(t, "the worktree's tab", func() bool { return tabCount(w) == 2 })
	var nt *Tab
	onUI(func() { nt = w.shell.current })
	wtDir := filepath.Join(env.WorkDir, "host repo-worktrees", "agent-remote-try")
	if nt.flags.SSH != sshtest.Alias || nt.flags.Dir != wtDir || nt.worktree == nil {
		t.Fatalf("the new tab: ssh %q, folder %q, worktree %+v", nt.flags.SSH, nt.flags.Dir, nt.worktree)
	}
	testsupport.Eventually(t, "its agent on the host", func() bool {
		return nt.session.View(nil).Conn == model.ConnReady && len(nt.session.Models()) > 0
	})
	typeAndSend(nt, `Write it [[tool:write:{"path":"remote.txt","content":"r\n"}]]`)
	testsupport.Eventually(t, "written in the worktree on the host", func() bool {
		return settledReply(nt) && readFiles(t, wtDir, "remote.txt")["remote.txt"] == "r\n"
	})
	onUI(func() { w.shell.closeTab(nt) })
	testsupport.Eventually(t, "what becomes of it", func() bool { return strings.Contains(dialogSays(nt), "agent/remote-try") })
	onUI(func() { test.Tap(findButton(t, w.win, "Delete worktree and branch")) })
	testsupport.Eventually(t, "asked about the uncommitted file", func() bool { return strings.Contains(dialogSays(nt), "remote.txt") })
	onUI(func() { test.Tap(findButton(t, w.win, "Delete them")) })
	testsupport.Eventually(t, "deleted on the host", func() bool {
		_, err := os.Stat(wtDir)
		return errors.Is(err, os.ErrNotExist) && tabCount(w) == 1
	})
	if out := gitIn(t, dir, "branch", "--list"); strings.Contains(out, "remote-try") {
		t.Fatalf("the branch is left: %s", out)
	}
}
