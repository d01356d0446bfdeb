package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// A tab in a worktree of its own: "New tab in a worktree…" makes a branch
// from what the tab's folder has checked out and a git worktree for it,
// and opens a tab whose agent works there; its label shows the branch.
// Closing it offers to merge the branch into the one it came from, to keep
// the worktree, or to delete worktree and branch; files not committed there
// are never deleted without a question.

// actionWorktreeTab asks for the branch and the folder, then makes them.
func (t *Tab) actionWorktreeTab() {
	folder := t.started.dir
	if spec, ok := remoteSpec(t.flags); ok {
		folder = spec.Dir
	}
	run := gitFor(t.flags)
	t.bg.Go(func(ctx context.Context) {
		repo, err := gitwork.Open(ctx, run, folder, gitwork.Options{})
		t.do(func() {
			if err != nil {
				t.message("No worktree for this folder", sentence(gitWords(err)))
				return
			}
			t.askWorktree(repo)
		})
	})
}

// worktreeParent is where a new worktree goes: the setting, else beside
// the repository.
func (t *Tab) worktreeDir(root, branch string) string {
	if t.flags.SSH != "" {
		return gitwork.DefaultWorktreeDir(root, branch) // the host's paths, always with /
	}
	if base := t.settings.WorktreeDir; base != "" {
		return filepath.Join(base, filepath.Base(root)+"-"+strings.ReplaceAll(branch, "/", "-"))
	}
	return filepath.FromSlash(gitwork.DefaultWorktreeDir(filepath.ToSlash(root), branch))
}

func (t *Tab) askWorktree(repo *gitwork.Repo) {
	k := newKeyDialog(t.win, t.modals)
	branch := widgetEntry(k, "agent/"+time.Now().Format("2006-01-02-1504"))
	dir := widgetEntry(k, t.worktreeDir(repo.Root, branch.Text))
	edited := false
	dir.OnChanged = func(string) { edited = true }
	branch.OnChanged = func(s string) {
		if !edited {
			dir.OnChanged = nil
			dir.SetText(t.worktreeDir(repo.Root, s))
			dir.OnChanged = func(string) { edited = true }
		}
	}
	note := inUseLabel("A new branch from what " + filepath.Base(repo.Root) + " has checked out; the new tab's agent works in its own folder, and your folder stays as it is.")
	form := widget.NewForm(widget.NewFormItem("Branch", branch), widget.NewFormItem("Folder", dir))
	k.focus = branch
	k.build("New tab in a worktree", container.NewVBox(form, note),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Make worktree", icon: theme.ContentAddIcon(), isDefault: true, run: func() {
			t.makeWorktree(repo, strings.TrimSpace(branch.Text), strings.TrimSpace(dir.Text))
		}})
	k.Resize(fyne.NewSize(600, 0))
	k.Show()
}

func (t *Tab) makeWorktree(repo *gitwork.Repo, branch, dir string) {
	onHost := t.flags.SSH != ""
	if abs, err := filepath.Abs(dir); err == nil && !onHost {
		dir = abs
	}
	t.bg.Go(func(ctx context.Context) {
		// git makes the folders above a worktree's on the host itself.
		if !onHost {
			if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
				t.do(func() { t.message("No worktree made", sentence(err.Error())) })
				return
			}
		}
		w, err := repo.AddWorktree(ctx, branch, dir)
		t.do(func() {
			if err != nil {
				t.message("No worktree made", sentence(gitWords(err)))
				return
			}
			f := t.flags
			f.Dir = w.Dir
			f.AgentArgs = withoutSessionArgs(f.AgentArgs)
			nt := t.shell.openTab(f, true)
			nt.worktree = &w
			t.shell.refreshLabels()
		})
	})
}

func widgetEntry(k *keyDialog, text string) *kit.DialogEntry {
	e := kit.NewDialogEntry(k.Keys())
	e.SetText(text)
	return e
}

// closeWorktree asks what becomes of a worktree tab's branch and folder,
// then closes the tab.
func (w *Window) closeWorktree(t *Tab, close func()) {
	wt := *t.worktree
	base := wt.Base
	if base == "" {
		base = "the branch it came from"
	}
	text := fmt.Sprintf("This tab works in %s, on the branch %s.\n\nMerge it into %s and delete the worktree, keep the worktree and branch for later, or delete both?", wt.Dir, wt.Branch, base)
	t.ask("Close the worktree tab?", text,
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Keep worktree", isDefault: true, run: close},
		dialogAction{label: "Delete worktree and branch", run: func() { w.finishWorktree(t, false, close) }},
		dialogAction{label: "Merge into " + wt.Base, run: func() { w.finishWorktree(t, true, close) }})
}

// finishWorktree merges (when merge) and deletes the worktree and its
// branch, asking first when files there are not committed.
func (w *Window) finishWorktree(t *Tab, merge bool, close func()) {
	wt := *t.worktree
	run := gitFor(t.flags)
	t.bg.Go(func(ctx context.Context) {
		repo, err := gitwork.Open(ctx, run, wt.Dir, gitwork.Options{})
		var left []string
		if err == nil {
			left, err = repo.Uncommitted(ctx)
		}
		t.do(func() {
			if err != nil {
				t.message("Worktree not removed", sentence(gitWords(err)))
				return
			}
			run := func(force bool) { w.removeWorktree(t, repo, wt, merge, force, close) }
			if len(left) == 0 {
				run(false)
				return
			}
			names := make([]gitwork.FileChange, len(left))
			for i, p := range left {
				names[i] = gitwork.FileChange{Path: p, Status: gitwork.Modified}
			}
			what := "deleted"
			if merge {
				what = "left out of the merge and deleted"
			}
			t.ask("Files not committed", fmt.Sprintf("%s in the worktree %s not committed and would be %s:\n%s\n\nCommit them first in the Changes pane (Ctrl+Shift+G), or delete them?",
				plural(len(left), "file"), isAre(len(left)), what, fileSummary(names, 8)),
				dialogAction{label: "Cancel", isCancel: true, isDefault: true},
				dialogAction{label: "Delete them", run: func() { run(true) }})
		})
	})
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (w *Window) removeWorktree(t *Tab, repo *gitwork.Repo, wt gitwork.Worktree, merge, force bool, close func()) {
	say := func(f func(cur *Tab)) {
		w.do(func() {
			if cur := w.current; cur != nil {
				f(cur)
			}
		})
	}
	// Not the tab's background work: that stops with the tab, which closes
	// before its folder goes.
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if merge {
			if err := repo.MergeInto(ctx, wt); err != nil {
				say(func(cur *Tab) {
					cur.message("Not merged", sentence(gitWords(err))+"\n\nThe worktree and its branch are kept, and the tab stays open.")
				})
				return
			}
		}
		// The worktree goes before the tab: closing the last tab ends the
		// app, and with it this work.
		err := repo.RemoveWorktree(ctx, wt, force, true)
		if err == nil {
			w.do(close)
		}
		say(func(cur *Tab) {
			switch {
			case err != nil:
				cur.message("Worktree not removed", sentence(gitWords(err))+"\n\nThe tab stays open.")
			case merge:
				cur.toasts.Show("Merged "+wt.Branch+" into "+wt.Base+"; its worktree and branch are deleted.", model.NoticeInfo)
			default:
				cur.toasts.Show("The worktree and the branch "+wt.Branch+" are deleted.", model.NoticeInfo)
			}
		})
	}()
}

// findWorktree learns, once the agent is ready (off the first screen's
// path), whether a tab opened in some folder works in a worktree the app
// made: a tab reopened at the next start, or from --cwd. Its label then
// names the branch and closing it asks what becomes of them.
func (t *Tab) findWorktree() {
	folder := t.started.dir
	if spec, ok := remoteSpec(t.flags); ok {
		folder = spec.Dir
	}
	if t.worktree != nil || folder == "" {
		return
	}
	run := gitFor(t.flags)
	t.bg.Go(func(ctx context.Context) {
		repo, err := gitwork.Open(ctx, run, folder, gitwork.Options{})
		if err != nil {
			return
		}
		if w, ok := repo.OpenWorktree(ctx); ok {
			t.do(func() {
				if t.worktree == nil {
					t.worktree = &w
					t.shell.refreshLabels()
				}
			})
		}
	})
}
