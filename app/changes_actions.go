package app

import (
	"context"
	"strings"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/model"
)

// The changes pane's actions. Each runs git in background work, then looks
// again; git's own words are shown when it refuses. A revert keeps an undo
// until the next one.

// act runs f with the repository, then shows what failed, then looks again.
func (p *changesPane) act(what string, f func(ctx context.Context, r *gitwork.Repo) error, done func()) {
	p.bg.Go(func(ctx context.Context) {
		err := p.git.with(ctx, func(r *gitwork.Repo) error { return f(ctx, r) })
		p.do(func() {
			if err != nil {
				p.message(what+" failed", sentence(gitWords(err)))
			} else if done != nil {
				done()
			}
			p.look()
		})
	})
}

// hunkAction is a hunk's button: Revert, Stage or Unstage.
func (p *changesPane) hunkAction(hunk int, label string) {
	st := p.state
	d := st.fileDiff
	if hunk < 0 || hunk >= len(d.Hunks) {
		return
	}
	path := st.selected
	switch label {
	case "Revert":
		var u gitwork.Undo
		p.act("Revert", func(ctx context.Context, r *gitwork.Repo) error {
			var err error
			u, err = r.RevertHunk(ctx, p.session(), d, hunk, path)
			return err
		}, func() { p.keepUndo("Reverted a change in "+printablePath(path)+".", u) })
	case "Stage":
		p.act("Stage", func(ctx context.Context, r *gitwork.Repo) error { return r.StageHunk(ctx, d, hunk) }, nil)
	case "Unstage":
		p.act("Unstage", func(ctx context.Context, r *gitwork.Repo) error { return r.UnstageHunk(ctx, d, hunk) }, nil)
	}
}

// revertFile puts the selected file back as it is in the base.
func (p *changesPane) revertFile() {
	st := p.state
	f, ok := st.file(st.selected)
	if !ok {
		return
	}
	var u gitwork.Undo
	p.act("Revert", func(ctx context.Context, r *gitwork.Repo) error {
		var err error
		u, err = r.RevertFile(ctx, p.session(), st.from, f)
		return err
	}, func() { p.keepUndo("Reverted "+printablePath(f.Path)+".", u) })
}

// stageFile stages the selected file, or unstages it on the staged side.
func (p *changesPane) stageFile() {
	st := p.state
	f, ok := st.file(st.selected)
	if !ok {
		return
	}
	paths := []string{f.Path}
	if f.OldPath != "" {
		paths = append(paths, f.OldPath)
	}
	if st.showStaged && st.staged[f.Path] {
		p.act("Unstage", func(ctx context.Context, r *gitwork.Repo) error { return r.UnstageFile(ctx, paths...) }, nil)
		return
	}
	p.act("Stage", func(ctx context.Context, r *gitwork.Repo) error { return r.StageFile(ctx, paths...) }, nil)
}

func (p *changesPane) keepUndo(what string, u gitwork.Undo) {
	p.undo = &paneUndo{what: what, undo: u}
	p.undoLabel.SetText(what)
	p.undoBar.Show()
}

// undoRevert takes the last revert back.
func (p *changesPane) undoRevert() {
	u := p.undo
	if u == nil {
		return
	}
	p.undo = nil
	p.undoBar.Hide()
	p.act("Undo", func(ctx context.Context, r *gitwork.Repo) error {
		return r.UndoRevert(ctx, p.session(), u.undo)
	}, func() { p.toasts.Show("The revert was undone.", model.NoticeInfo) })
}

// commit commits what is staged with the message typed.
func (p *changesPane) commit() {
	msg := strings.TrimSpace(p.commitMessage.Text)
	if msg == "" || len(p.state.staged) == 0 {
		return
	}
	var commit string
	p.commitBtn.Disable()
	p.act("Commit", func(ctx context.Context, r *gitwork.Repo) error {
		var err error
		commit, err = r.Commit(ctx, msg)
		return err
	}, func() {
		if strings.TrimSpace(p.commitMessage.Text) == msg {
			p.commitMessage.SetText("") // not what was typed during the commit
		}
		short := commit
		if len(short) > 8 {
			short = short[:8]
		}
		p.toasts.Show("Committed "+short+": "+headline(msg, 60), model.NoticeInfo)
	})
}
