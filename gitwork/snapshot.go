package gitwork

import (
	"context"
	"errors"
	"path"
	"strings"
	"sync"
	"time"
)

// snapshot is the work tree as it is now, written to git's object store:
// tracked files and untracked ones that are not ignored. Its index (with
// the files' stat information) is the repository's kept index, held until
// close, so a restore that follows knows the files are as the tree says.
type snapshot struct {
	Tree  string
	index string
	repo  *Repo
	done  func()
}

func (s *snapshot) env() []string { return []string{"GIT_INDEX_FILE=" + s.index} }

func (s *snapshot) close(context.Context) {
	if s.done != nil {
		s.done()
		s.done = nil
	}
}

// keptIndexes serialises, in this process, the work on one repository's
// kept index (by git directory): two tabs in one folder take turns.
// Another process is kept out by git's own index.lock, which the
// commands below wait for.
var keptIndexes sync.Map // Repo.key → *sync.Mutex

// key names the repository among all this process works with: its git
// directory on its machine.
func (r *Repo) key() string {
	if p, ok := r.run.(Placed); ok {
		return p.Place() + "\x00" + r.GitDir
	}
	return r.GitDir
}

// keptIndex is the index the snapshots of this repository start from:
// beside the user's (never the user's), kept between snapshots so each
// one after the first reads again only the files changed since, which is
// what makes checkpoints and the changes pane cheap on a large repository.
// In the app's own git directory it is that directory's index.
func (r *Repo) keptIndex() string {
	if r.Own {
		return path.Join(slashes(r.GitDir), "index")
	}
	return path.Join(slashes(r.GitDir), "knightcode-index")
}

// seeded marks the kept indexes seeded by this process (by git
// directory): once per process, from the user's index, which the user's
// own git keeps fresh meanwhile.
var seeded sync.Map

// takeSnapshot writes the work tree's state as a tree.
func (r *Repo) takeSnapshot(ctx context.Context) (*snapshot, error) {
	m, _ := keptIndexes.LoadOrStore(r.key(), &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	s := &snapshot{index: r.keptIndex(), repo: r, done: mu.Unlock}
	tree, err := r.writeWorkTree(ctx, s)
	if err != nil && isLockBusy(err) && ctx.Err() == nil {
		// Our own index, held by this process's lock: a lock file still
		// there after gitLocked's waits is one a git that died left.
		_ = r.run.Remove(ctx, s.index+".lock")
		tree, err = r.writeWorkTree(ctx, s)
	}
	if err != nil && !isLockBusy(err) && ctx.Err() == nil {
		// A kept index git cannot read (a crash while it was written):
		// made again from the user's.
		seeded.Delete(r.key())
		_ = r.run.Remove(ctx, s.index)
		tree, err = r.writeWorkTree(ctx, s)
	}
	if err != nil {
		s.close(ctx)
		return nil, err
	}
	s.Tree = tree
	return s, nil
}

func (r *Repo) writeWorkTree(ctx context.Context, s *snapshot) (string, error) {
	if _, done := seeded.Load(r.key()); !done && !r.Own {
		if err := r.seed(ctx, s); err != nil {
			return "", err
		}
		seeded.Store(r.key(), true)
	}
	if _, err := r.gitLocked(ctx, s.env(), nil, "add", "-A"); err != nil {
		return "", err
	}
	tree, err := r.gitLocked(ctx, s.env(), nil, "write-tree")
	return strings.TrimSpace(string(tree)), err
}

// seed makes the kept index: HEAD's entries with the stat information of
// the user's index where its entries match HEAD, read by read-tree
// --index-output, which never writes the user's index. Without a HEAD it
// starts empty.
func (r *Repo) seed(ctx context.Context, s *snapshot) error {
	_ = r.run.Remove(ctx, s.index)
	head, hasHead, err := r.head(ctx)
	if err != nil || !hasHead {
		return err
	}
	// It locks the user's index for its moment: not cancelled midway.
	seedCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if _, err := r.gitLocked(seedCtx, nil, nil, "read-tree", "-m", "--index-output="+s.index, head); err == nil {
		return nil
	}
	// Unmerged entries or an index git cannot read: every file is read once.
	_ = r.run.Remove(ctx, s.index)
	_, err = r.git(ctx, s.env(), nil, "read-tree", head)
	return err
}

// gitLocked runs git, waiting a little when an index it needs is locked
// by another git (the user's, another app's): such locks last
// milliseconds.
func (r *Repo) gitLocked(ctx context.Context, env []string, stdin []byte, args ...string) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		out, err := r.git(ctx, env, stdin, args...)
		if err == nil || !isLockBusy(err) || attempt == 6 {
			return out, err
		}
		if !sleepCtx(ctx, time.Duration(25<<attempt)*time.Millisecond) {
			return out, err
		}
	}
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
