package gitwork

import (
	"context"
	"errors"
	"path"
	"strings"
	"time"
)

// snapshot is the work tree as it is now, written to git's object store:
// tracked files and untracked ones that are not ignored. Its index (with
// the files' stat information) is kept for a following restore, which
// needs to know the files are as the tree says; close removes it.
type snapshot struct {
	Tree  string
	index string
	repo  *Repo
}

func (s *snapshot) env() []string { return []string{"GIT_INDEX_FILE=" + s.index} }

func (s *snapshot) close(ctx context.Context) {
	if s.index != "" {
		_ = s.repo.run.Remove(context.WithoutCancel(ctx), s.index)
		_ = s.repo.run.Remove(context.WithoutCancel(ctx), s.index+".lock")
	}
}

// takeSnapshot writes the work tree's state as a tree. It starts from a
// copy of the user's index (HEAD's entries with the stat information the
// user's git last saw, read by read-tree --index-output, which never
// writes the user's index) so only files changed since are read again:
// this is what makes every checkpoint after the first cheap on a large
// repository.
func (r *Repo) takeSnapshot(ctx context.Context) (*snapshot, error) {
	s := &snapshot{index: r.tempIndex(), repo: r}
	head, hasHead, err := r.head(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Own:
		r.seedOwn(ctx, s)
	case hasHead:
		if err := r.seedFromUserIndex(ctx, s, head); err != nil {
			return nil, err
		}
	}
	if _, err := r.git(ctx, s.env(), nil, "add", "-A"); err != nil {
		s.close(ctx)
		return nil, err
	}
	tree, err := r.gitString(ctx, s.env(), "write-tree")
	if err != nil {
		s.close(ctx)
		return nil, err
	}
	s.Tree = tree
	if r.Own {
		r.keepOwnIndex(ctx, s)
	}
	return s, nil
}

// seedFromUserIndex fills the snapshot's index with HEAD, taking the stat
// information of the user's index where its entries match HEAD. The user's
// index is locked for that moment as any git status would; a lock held by
// the user's own git is waited for a little, then the slow way is taken.
func (r *Repo) seedFromUserIndex(ctx context.Context, s *snapshot, head string) error {
	for attempt := 0; attempt < 5; attempt++ {
		_, err := r.git(ctx, nil, nil, "read-tree", "-m", "--index-output="+s.index, head)
		if err == nil {
			return nil
		}
		if !isLockBusy(err) {
			break // unmerged entries, an index git cannot read: the slow way
		}
		if !sleepCtx(ctx, time.Duration(50<<attempt)*time.Millisecond) {
			return ctx.Err()
		}
	}
	_ = r.run.Remove(ctx, s.index)
	_, err := r.git(ctx, s.env(), nil, "read-tree", head)
	return err
}

// seedOwn gives the app's own git directory's snapshot the stat cache the
// last one left (GitDir/index); a missing or broken one means reading every
// file once, nothing worse.
func (r *Repo) seedOwn(ctx context.Context, s *snapshot) {
	own := []string{"GIT_INDEX_FILE=" + r.ownIndex()}
	tree, err := r.gitString(ctx, own, "write-tree")
	if err != nil {
		return
	}
	if _, err := r.git(ctx, own, nil, "read-tree", "-m", "--index-output="+s.index, tree); err != nil {
		_ = r.run.Remove(ctx, s.index)
	}
}

func (r *Repo) ownIndex() string { return path.Join(slashes(r.GitDir), "index") }

// keepOwnIndex makes this snapshot's index the stat cache of the next one.
func (r *Repo) keepOwnIndex(ctx context.Context, s *snapshot) {
	_, _ = r.git(ctx, s.env(), nil, "read-tree", "-m", "--index-output="+r.ownIndex(), s.Tree)
}

func isLockBusy(err error) bool {
	var ge *GitError
	return errors.As(err, &ge) && strings.Contains(ge.Stderr, ".lock")
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
