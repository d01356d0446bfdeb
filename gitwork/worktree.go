package gitwork

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
)

// A worktree per tab: a branch and a `git worktree` for it, so a tab's
// agent works apart from the folder the user works in, and what it made is
// merged, kept or deleted when the tab closes.

// baseKey is the branch's git config entry naming the branch it came
// from, for the merge offered when its tab closes.
const baseKey = "knightcode-base"

// Worktree is a linked worktree made for a tab.
type Worktree struct {
	Dir    string // its folder
	Branch string // the branch checked out there
	// Base is the branch it was made from ("" when HEAD was detached).
	Base string
}

// CheckBranchName says, in git's words, why name cannot be a branch.
func (r *Repo) CheckBranchName(ctx context.Context, name string) error {
	if strings.HasPrefix(name, "-") {
		return fmt.Errorf("a branch name cannot start with a dash")
	}
	_, err := r.git(ctx, nil, nil, "check-ref-format", "--branch", name)
	return err
}

// AddWorktree makes branch from what is checked out here and a worktree of
// it in dir (which must not exist, or be empty).
func (r *Repo) AddWorktree(ctx context.Context, branch, dir string) (Worktree, error) {
	if r.Own {
		return Worktree{}, errors.New("the folder is not a git repository: a worktree needs one")
	}
	if err := r.CheckBranchName(ctx, branch); err != nil {
		return Worktree{}, err
	}
	head, ok, err := r.head(ctx)
	if err != nil {
		return Worktree{}, err
	}
	if !ok {
		return Worktree{}, errors.New("the repository has no commit yet: a worktree starts from one")
	}
	base, _ := r.gitString(ctx, nil, "symbolic-ref", "-q", "--short", "HEAD")
	if _, err := r.git(ctx, nil, nil, "worktree", "add", "-q", "-b", branch, "--", dir, head); err != nil {
		return Worktree{}, err
	}
	if base != "" {
		if _, err := r.git(ctx, nil, nil, "config", "branch."+branch+"."+baseKey, base); err != nil {
			return Worktree{}, err
		}
	}
	return Worktree{Dir: dir, Branch: branch, Base: base}, nil
}

// OpenWorktree says whether the repository's folder is a worktree the app
// made (its branch has a base recorded), and which.
func (r *Repo) OpenWorktree(ctx context.Context) (Worktree, bool) {
	if r.Own {
		return Worktree{}, false
	}
	branch, err := r.gitString(ctx, nil, "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil || branch == "" {
		return Worktree{}, false
	}
	base, err := r.gitString(ctx, nil, "config", "--get", "branch."+branch+"."+baseKey)
	if err != nil || base == "" {
		return Worktree{}, false
	}
	return Worktree{Dir: r.Root, Branch: branch, Base: base}, true
}

// Uncommitted lists what in the folder is not committed (changed, staged
// or untracked and not ignored): what deleting the worktree would lose.
func (r *Repo) Uncommitted(ctx context.Context) ([]string, error) {
	out, err := r.git(ctx, nil, nil, "status", "--porcelain", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var paths []string
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		paths = append(paths, f[3:])
		if f[0] == 'R' || f[0] == 'C' {
			i++ // the old name follows
		}
	}
	return paths, nil
}

// mainRoot is the work tree of the repository's main worktree, where the
// base branch usually is checked out.
func (r *Repo) worktreeOf(ctx context.Context, branch string) (string, error) {
	out, err := r.git(ctx, nil, nil, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return "", err
	}
	dir := ""
	for _, f := range strings.Split(string(out), "\x00") {
		switch {
		case strings.HasPrefix(f, "worktree "):
			dir = strings.TrimPrefix(f, "worktree ")
		case f == "branch refs/heads/"+branch:
			return dir, nil
		}
	}
	return "", fmt.Errorf("the branch %s is not checked out in any worktree: check it out to merge into it", branch)
}

// MergeInto merges w's branch into its base, in the worktree where the base
// is checked out, with git merge (hooks run; a conflict is git's to say and
// the merge is taken back).
func (r *Repo) MergeInto(ctx context.Context, w Worktree) error {
	if w.Base == "" {
		return errors.New("the worktree's branch has no branch it came from")
	}
	dir, err := r.worktreeOf(ctx, w.Base)
	if err != nil {
		return err
	}
	target := &Repo{run: r.run, Root: dir, GitDir: r.GitDir}
	merging := func() bool {
		_, err := target.git(ctx, nil, nil, "rev-parse", "-q", "--verify", "MERGE_HEAD")
		return err == nil
	}
	if merging() {
		return fmt.Errorf("a merge is already under way in %s: finish or abort it first", dir)
	}
	if _, err := target.git(ctx, nil, nil, "merge", "--no-edit", "-m", "Merge "+w.Branch+" (KnightCode worktree)", "--", w.Branch); err != nil {
		if merging() { // ours, stopped on conflicts: taken back
			_, _ = target.git(ctx, nil, nil, "merge", "--abort")
		}
		return err
	}
	return nil
}

// RemoveWorktree deletes the worktree's folder and, with deleteBranch, its
// branch (even unmerged: the user was asked). git refuses a worktree with
// uncommitted changes unless force.
func (r *Repo) RemoveWorktree(ctx context.Context, w Worktree, force bool, deleteBranch bool) error {
	// From the main worktree: the one being removed cannot run git after.
	main, err := r.mainWorktree(ctx)
	if err != nil {
		return err
	}
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	if _, err := main.git(ctx, nil, nil, append(args, "--", w.Dir)...); err != nil {
		return err
	}
	if !deleteBranch {
		return nil
	}
	_, err = main.git(ctx, nil, nil, "branch", "-q", "-D", "--", w.Branch)
	return err
}

// mainWorktree is the repository as seen from its main worktree, the
// first `git worktree list` gives.
func (r *Repo) mainWorktree(ctx context.Context) (*Repo, error) {
	out, err := r.git(ctx, nil, nil, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	first, _, _ := strings.Cut(string(out), "\x00")
	dir, ok := strings.CutPrefix(first, "worktree ")
	if !ok || dir == "" {
		return nil, fmt.Errorf("git worktree list: unexpected %q", first)
	}
	return &Repo{run: r.run, Root: dir, GitDir: r.GitDir}, nil
}

// DefaultWorktreeDir is where a tab's worktree goes unless the user chose:
// beside the repository, in a folder named after it.
func DefaultWorktreeDir(root, branch string) string {
	parent, name := path.Split(strings.TrimRight(slashes(root), "/"))
	return path.Join(parent, name+"-worktrees", strings.ReplaceAll(branch, "/", "-"))
}
