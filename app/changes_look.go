package app

import (
	"context"
	"errors"
	"time"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/changes"
)

// lookAt asks git what the changes pane shows for want: the files changed
// between the base and the folder (or the next message's checkpoint), what
// is staged, and the selected file's diff. It runs in background work.
func lookAt(ctx context.Context, git *folderGit, want paneState, items []model.ChatItem) paneState {
	st := want
	st.fileDiff = gitwork.FileDiff{}
	err := git.with(ctx, func(r *gitwork.Repo) error {
		st.own = r.Own
		if _, remote := r.Runner().(gitwork.Placed); !remote {
			st.root = r.Root
		}
		if st.own && st.mode == modeHead {
			st.note = "The folder is not a git repository: there is no last commit, so this shows the session's changes."
			st.mode = modeSession
		}
		if err := resolveBase(ctx, r, &st, items); err != nil {
			return err
		}
		var err error
		if st.to == "" {
			st.present, st.files, err = r.Changes(ctx, st.from)
		} else {
			st.files, err = r.Between(ctx, st.from, st.to)
		}
		if err != nil {
			return err
		}
		st.staged = map[string]bool{}
		if st.mode == modeHead {
			staged, err := r.Staged(ctx)
			if err != nil {
				return err
			}
			for _, f := range staged {
				st.staged[f.Path] = true
			}
		}
		if f, ok := st.file(st.selected); ok {
			st.fileDiff, err = fileDiff(ctx, r, &st, f)
			return err
		}
		st.selected = ""
		if len(st.files) > 0 {
			st.selected = st.files[0].Path
			st.fileDiff, err = fileDiff(ctx, r, &st, st.files[0])
		}
		return err
	})
	if err != nil {
		st.files, st.note = nil, sentence(gitWords(err))
	}
	return st
}

// resolveBase finds the checkpoints a look compares: the one before the
// session's first message, or those around one message's turn. Without
// one, it says so and compares with the last commit.
func resolveBase(ctx context.Context, r *gitwork.Repo, st *paneState, items []model.ChatItem) error {
	st.from, st.to = "", ""
	if st.mode == modeHead {
		return nil
	}
	var sent []time.Time
	for _, it := range items {
		if it.Kind == model.ChatUser && !it.Sent.IsZero() {
			sent = append(sent, it.Sent)
		}
	}
	list, err := r.AllCheckpoints(ctx)
	if err != nil {
		return err
	}
	before := func(n int) (gitwork.Checkpoint, bool) { // message n, from 1
		var after time.Time
		if n > 1 {
			after = sent[n-2]
		}
		return gitwork.BeforeMessage(list, after, sent[n-1])
	}
	n := 1
	if st.mode == modeTurn {
		n = st.turn
	}
	if n > len(sent) || n < 1 {
		return headInstead(st, r, "No message has gone to the agent yet")
	}
	c, ok := before(n)
	if !ok {
		return headInstead(st, r, "No checkpoint was kept before that message")
	}
	st.from = c.Commit
	if st.mode == modeTurn && n < len(sent) {
		if next, ok := before(n + 1); ok {
			st.to = next.Commit
		}
	}
	return nil
}

// headInstead compares with the last commit when no checkpoint is found,
// and says why.
func headInstead(st *paneState, r *gitwork.Repo, why string) error {
	if r.Own {
		return errors.New(why + ", and the folder is not a git repository: there is nothing to compare with")
	}
	st.note = why + ": showing the changes since the last commit."
	return nil
}

// fileDiff is the diff the pane shows for f: since the base for a
// checkpoint, and for the last commit the unstaged (index to files) or
// staged side, or the whole new file when git does not know it yet.
func fileDiff(ctx context.Context, r *gitwork.Repo, st *paneState, f gitwork.FileChange) (gitwork.FileDiff, error) {
	if st.mode == modeHead && !st.own {
		if st.showStaged && !st.staged[f.Path] {
			st.showStaged = false // committed or unstaged since
		}
		if st.showStaged {
			return r.IndexDiff(ctx, f.Path, true)
		}
		d, err := r.IndexDiff(ctx, f.Path, false)
		if err != nil || len(d.Hunks) > 0 || d.Binary {
			return d, err
		}
		if st.staged[f.Path] {
			// All of it is staged: that side is what there is to see.
			st.showStaged = true
			return r.IndexDiff(ctx, f.Path, true)
		}
		// untracked: nothing between the index and the file
	}
	to := st.to
	if to == "" {
		to = st.present
	}
	return r.Diff(ctx, st.from, to, f.Path, f.OldPath)
}

// viewDiff converts a file's diff for the diff view.
func viewDiff(f gitwork.FileChange, d gitwork.FileDiff) changes.Diff {
	out := changes.Diff{Path: f.Path}
	switch {
	case d.Binary || f.Binary:
		out.Note = "Binary file: no line changes to show."
		return out
	case f.ModeOnly:
		out.Note = "Only the file's mode changed (executable or not)."
		return out
	case len(d.Hunks) == 0:
		out.Note = "No changes on this side."
		return out
	}
	for i, h := range d.Hunks {
		out.Lines = append(out.Lines, changes.HunkLines(i, h.Header, h.OldStart, h.NewStart, h.Lines)...)
	}
	return out
}
