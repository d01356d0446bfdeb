package gitwork

import (
	"context"
	"time"
)

// Restore makes the folder what it was at checkpoint c: files changed
// since get their content back, files made since are deleted, files
// deleted since come back; ignored files are left alone. A checkpoint of
// the present is taken first, and returned: restoring it undoes this.
func (r *Repo) Restore(ctx context.Context, c Checkpoint) (undo Checkpoint, err error) {
	target, err := r.gitString(ctx, nil, "rev-parse", "--verify", "-q", c.Commit+"^{tree}")
	if err != nil {
		return Checkpoint{}, err
	}
	return r.switchTo(ctx, c.Session, BeforeRestore, c.Turn, func(*snapshot) (string, error) { return target, nil })
}

// RestorePaths makes only paths what they are in from (a commit or tree):
// a path from does not have is deleted. A checkpoint of the present is
// taken first and returned for the undo, under session.
func (r *Repo) RestorePaths(ctx context.Context, session string, kind Kind, from string, paths []string) (undo Checkpoint, err error) {
	return r.switchTo(ctx, session, kind, 0, func(present *snapshot) (string, error) {
		// The target is the present with those paths taken from `from`,
		// built in an index of its own.
		idx := &snapshot{index: r.tempIndex(), repo: r}
		defer func() { _ = r.run.Remove(context.WithoutCancel(ctx), idx.index) }()
		if _, err := r.git(ctx, idx.env(), nil, "read-tree", present.Tree); err != nil {
			return "", err
		}
		args := append([]string{"reset", "-q", from, "--"}, paths...)
		if _, err := r.git(ctx, idx.env(), nil, args...); err != nil {
			return "", err
		}
		return r.gitString(ctx, idx.env(), "write-tree")
	})
}

// moveBound bounds moving the work tree in a restore.
const moveBound = 5 * time.Minute

// switchTo keeps the present as a checkpoint, then moves the work tree
// from the present's tree to the one target gives, the way git checkout
// moves between commits: git refuses, in its own words, when a file
// changed between the snapshot and the move, or when an ignored file is
// in the way. The user's index, HEAD and branches are not touched.
func (r *Repo) switchTo(ctx context.Context, session string, kind Kind, turn int, target func(*snapshot) (string, error)) (Checkpoint, error) {
	present, err := r.takeSnapshot(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	defer present.close(ctx)
	to, err := target(present)
	if err != nil {
		return Checkpoint{}, err
	}
	undo, err := r.keep(ctx, present.Tree, session, kind, turn)
	if err != nil {
		return Checkpoint{}, err
	}
	if to == present.Tree {
		return undo, nil
	}
	// Once begun, the move is not cancelled (a tab closing): half the files
	// moved would be worse than all of them; it has its own bound.
	move, cancel := context.WithTimeout(context.WithoutCancel(ctx), moveBound)
	defer cancel()
	if _, err := r.git(move, present.env(), nil, "read-tree", "-m", "-u", present.Tree, to); err != nil {
		return undo, err
	}
	return undo, nil
}
