package gitwork

import (
	"context"
	"errors"
)

// The actions of the changes pane. Reverting is destructive, so each
// revert keeps a checkpoint first (Kind BeforeRevert) and returns it with
// the paths it touched: RestorePaths of those undoes it. Staging and
// committing are the user's git as they know it, hooks included.

// ErrNoIndex is the answer to staging in a folder that is in no
// repository: the app's own git directory has no index of the user's.
var ErrNoIndex = errors.New("the folder is not in a git repository: there is nothing to stage or commit")

// Undo is what takes a revert back.
type Undo struct {
	Checkpoint Checkpoint
	Paths      []string
}

// RevertFile makes one file what it is in base (a checkpoint's commit, or
// "" for HEAD); a file base does not have is deleted, a renamed one gets
// its old name back.
func (r *Repo) RevertFile(ctx context.Context, session, base string, f FileChange) (Undo, error) {
	from, err := r.baseTree(ctx, base)
	if err != nil {
		return Undo{}, err
	}
	paths := []string{f.Path}
	if f.OldPath != "" && f.OldPath != f.Path {
		paths = append(paths, f.OldPath)
	}
	cp, err := r.RestorePaths(ctx, session, BeforeRevert, from, paths)
	return Undo{Checkpoint: cp, Paths: paths}, err
}

// RevertHunk takes hunk i of d (a diff from Diff: base to present) out of
// the file in the work tree.
func (r *Repo) RevertHunk(ctx context.Context, session string, d FileDiff, i int, path string) (Undo, error) {
	cp, err := r.Take(ctx, session, BeforeRevert, 0)
	if err != nil {
		return Undo{}, err
	}
	_, err = r.git(ctx, nil, d.Patch(i), "apply", "-R", "--whitespace=nowarn", "-")
	return Undo{Checkpoint: cp, Paths: []string{path}}, err
}

// UndoRevert puts back what a revert took.
func (r *Repo) UndoRevert(ctx context.Context, session string, u Undo) error {
	_, err := r.RestorePaths(ctx, session, BeforeRestore, u.Checkpoint.Commit, u.Paths)
	return err
}

// StageFile stages a file as it is in the work tree (a deleted file's
// deletion too).
func (r *Repo) StageFile(ctx context.Context, paths ...string) error {
	if r.Own {
		return ErrNoIndex
	}
	_, err := r.git(ctx, nil, nil, append([]string{"add", "-A", "--"}, paths...)...)
	return err
}

// UnstageFile gives a file's index entry back HEAD's (none before the
// first commit).
func (r *Repo) UnstageFile(ctx context.Context, paths ...string) error {
	if r.Own {
		return ErrNoIndex
	}
	_, hasHead, err := r.head(ctx)
	if err != nil {
		return err
	}
	if !hasHead {
		_, err = r.git(ctx, nil, nil, append([]string{"rm", "-q", "--cached", "-r", "--ignore-unmatch", "--"}, paths...)...)
		return err
	}
	_, err = r.git(ctx, nil, nil, append([]string{"reset", "-q", "HEAD", "--"}, paths...)...)
	return err
}

// StageHunk stages hunk i of an unstaged diff (IndexDiff, staged false).
func (r *Repo) StageHunk(ctx context.Context, d FileDiff, i int) error {
	if r.Own {
		return ErrNoIndex
	}
	_, err := r.git(ctx, nil, d.Patch(i), "apply", "--cached", "--whitespace=nowarn", "-")
	return err
}

// UnstageHunk takes hunk i of a staged diff (IndexDiff, staged true) out
// of the index.
func (r *Repo) UnstageHunk(ctx context.Context, d FileDiff, i int) error {
	if r.Own {
		return ErrNoIndex
	}
	_, err := r.git(ctx, nil, d.Patch(i), "apply", "--cached", "-R", "--whitespace=nowarn", "-")
	return err
}

// Staged lists the files with staged changes (HEAD, or nothing, to the
// index).
func (r *Repo) Staged(ctx context.Context) ([]FileChange, error) {
	if r.Own {
		return nil, nil
	}
	base, err := r.baseTree(ctx, "")
	if err != nil {
		return nil, err
	}
	out, err := r.git(ctx, nil, nil, "diff-index", "--cached", "-z", "-M", "--raw", "--numstat", base)
	if err != nil {
		return nil, err
	}
	return parseRawNumstat(out)
}

// Commit commits what is staged with message, through git commit: the
// user's hooks run and may refuse, in their own words (a *GitError).
func (r *Repo) Commit(ctx context.Context, message string) (commit string, err error) {
	if r.Own {
		return "", ErrNoIndex
	}
	if _, err := r.git(ctx, nil, []byte(message), "commit", "-q", "--cleanup=whitespace", "-F", "-"); err != nil {
		return "", err
	}
	head, _, err := r.head(ctx)
	return head, err
}
