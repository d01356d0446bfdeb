package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/model"
)

// fileRestore puts the folder's files back as they were before one of the
// user's messages went out (the checkpoint taken then), and takes such a
// restore back. It is the tab's surface for "Restore Files to Before This
// Message…" (the chat's menu), "Restore files to before your last message"
// and "Undo file restore" (palette and menu), and Edit & resend's offer.
type fileRestore struct {
	*tabHost
	git *folderGit
	// changed is called after files were put back (the changes pane looks
	// again).
	changed func()
}

// restoreTarget is what a restore would do: the checkpoint and the files
// it changes back.
type restoreTarget struct {
	checkpoint gitwork.Checkpoint
	files      []gitwork.FileChange
	when       time.Time
}

// messageTimes finds, in what is drawn, when the user message id was
// taken by the agent and when the user message before it was (zero for
// the first).
func messageTimes(items []model.ChatItem, id string) (sent, before time.Time, ok bool) {
	for _, it := range items {
		if it.Kind != model.ChatUser {
			continue
		}
		if it.ID == id {
			return it.Sent, before, !it.Sent.IsZero()
		}
		if !it.Sent.IsZero() {
			before = it.Sent
		}
	}
	return time.Time{}, time.Time{}, false
}

// lastMessageID is the newest user message the agent took.
func lastMessageID(items []model.ChatItem) string {
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Kind == model.ChatUser && !items[i].Sent.IsZero() {
			return items[i].ID
		}
	}
	return ""
}

// find looks up the checkpoint before the message and what restoring it
// would change; ok false with a nil error means there is none.
func (r *fileRestore) find(ctx context.Context, sent, before time.Time) (restoreTarget, bool, error) {
	var t restoreTarget
	found := false
	err := r.git.with(ctx, func(repo *gitwork.Repo) error {
		list, err := repo.AllCheckpoints(ctx)
		if err != nil {
			return err
		}
		c, ok := gitwork.BeforeMessage(list, before, sent)
		if !ok {
			return nil
		}
		_, files, err := repo.Changes(ctx, c.Commit)
		if err != nil {
			return err
		}
		t, found = restoreTarget{checkpoint: c, files: files, when: sent}, true
		return nil
	})
	return t, found, err
}

// restoreBefore asks, then restores the files to before message id.
func (r *fileRestore) restoreBefore(id string) {
	sent, before, ok := messageTimes(r.drawn.Items, id)
	if !ok {
		r.message("Nothing to restore", "This message has not reached the agent yet.")
		return
	}
	r.bg.Go(func(ctx context.Context) {
		t, found, err := r.find(ctx, sent, before)
		r.do(func() {
			switch {
			case err != nil:
				r.message("Files not restored", sentence(gitWords(err)))
			case !found:
				r.message("No checkpoint for this message", "The folder's files were not kept before this message went out (it was sent before checkpoints were kept, or keeping one failed), so they cannot be put back.")
			case len(t.files) == 0:
				r.toasts.Show("The files are already as they were before this message.", model.NoticeInfo)
			default:
				r.confirm(t)
			}
		})
	})
}

// restoreLast restores the files to before the newest user message.
func (r *fileRestore) restoreLast() {
	id := lastMessageID(r.drawn.Items)
	if id == "" {
		r.message("Nothing to restore", "No message of this session has gone to the agent yet.")
		return
	}
	r.restoreBefore(id)
}

func (r *fileRestore) confirm(t restoreTarget) {
	goes := "files go back to how they were"
	if len(t.files) == 1 {
		goes = "file goes back to how it was"
	}
	text := fmt.Sprintf("%d %s before the message of %s:\n%s\n\nThe files as they are now are kept first: \"Undo file restore\" takes this back.",
		len(t.files), goes, t.when.Format("15:04"), fileSummary(t.files, 8))
	r.ask("Restore files to before this message?", text,
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Restore files", isDefault: true, run: func() { r.run(t.checkpoint) }})
}

// run restores c and says how it went.
func (r *fileRestore) run(c gitwork.Checkpoint) {
	r.restoreTo(c, func(err error) {
		if err != nil {
			r.message("Files not restored", sentence(gitWords(err)))
			return
		}
		r.toasts.Show("Files restored. \"Undo file restore\" (palette, Session menu) takes it back.", model.NoticeInfo)
	})
}

// restoreTo restores c in background work, keeping the restore's undo,
// then, on the UI goroutine, has the changes pane look again and runs done.
func (r *fileRestore) restoreTo(c gitwork.Checkpoint, done func(error)) {
	r.bg.Go(func(ctx context.Context) {
		err := r.git.with(ctx, func(repo *gitwork.Repo) error {
			undo, err := repo.Restore(ctx, c)
			if undo.Commit != "" {
				r.git.lastRestore = &undo
			}
			return err
		})
		r.do(func() {
			if r.changed != nil {
				r.changed()
			}
			done(err)
		})
	})
}

// undo takes the last restore back.
func (r *fileRestore) undo() {
	r.bg.Go(func(ctx context.Context) {
		var none bool
		err := r.git.with(ctx, func(repo *gitwork.Repo) error {
			c := r.git.lastRestore
			if c == nil {
				none = true
				return nil
			}
			if _, err := repo.Restore(ctx, *c); err != nil {
				return err
			}
			r.git.lastRestore = nil
			return nil
		})
		r.do(func() {
			switch {
			case none:
				r.message("Nothing to undo", "No files were restored in this tab since it opened.")
			case err != nil:
				r.message("Restore not undone", sentence(gitWords(err)))
			default:
				r.toasts.Show("The restore was undone: the files are back as they were before it.", model.NoticeInfo)
			}
			if r.changed != nil {
				r.changed()
			}
		})
	})
}

// offerWithEdit runs before an edited earlier prompt is sent again: when
// the files changed since that prompt first went out, it asks whether to
// put them back too (a true rewind), then sends.
//
// abandoned runs when it is not sent (Cancel, a restore that failed): the
// edit stays in the editor for Enter to send again.
func (r *fileRestore) offerWithEdit(id string, send, abandoned func()) {
	sent, before, ok := messageTimes(r.drawn.Items, id)
	if !ok {
		send()
		return
	}
	r.bg.Go(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		t, found, err := r.find(ctx, sent, before)
		r.do(func() {
			if err != nil || !found || len(t.files) == 0 {
				send()
				return
			}
			text := fmt.Sprintf("Since this message first went out, %s changed:\n%s\n\nPut them back as they were before it, so the agent starts again from there? The files as they are now are kept first: \"Undo file restore\" takes it back.",
				plural(len(t.files), "file"), fileSummary(t.files, 6))
			r.ask("Restore the files too?", text,
				dialogAction{label: "Cancel", isCancel: true, run: abandoned},
				dialogAction{label: "Send only", isDefault: true, run: send},
				dialogAction{label: "Restore files and send", run: func() { r.runThen(t.checkpoint, send, abandoned) }})
		})
	})
}

// runThen restores c, then sends; a restore that fails does not send.
func (r *fileRestore) runThen(c gitwork.Checkpoint, send, abandoned func()) {
	r.restoreTo(c, func(err error) {
		if err != nil {
			abandoned()
			r.message("Files not restored, message not sent", sentence(gitWords(err))+"\n\nYour edited message is still in the editor.")
			return
		}
		send()
	})
}

// fileSummary lists up to n changed files, one a line.
func fileSummary(files []gitwork.FileChange, n int) string {
	var b strings.Builder
	for i, f := range files {
		if i == n {
			fmt.Fprintf(&b, "\n  … and %d more", len(files)-n)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("  " + changeVerb(f) + " " + printablePath(f.Path))
	}
	return b.String()
}

// changeVerb says what a restore does to a file changed since.
func changeVerb(f gitwork.FileChange) string {
	switch f.Status {
	case gitwork.Added:
		return "delete"
	case gitwork.Deleted:
		return "bring back"
	case gitwork.Renamed:
		return "rename back"
	}
	return "restore"
}

// printablePath shows a file name with control characters (a newline in
// a name) escaped, so one name stays one line.
func printablePath(p string) string {
	if !strings.ContainsFunc(p, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return p
	}
	return strings.Trim(fmt.Sprintf("%q", p), `"`)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// gitWords is what git said, when it was git that refused.
func gitWords(err error) string {
	var ge *gitwork.GitError
	if errors.As(err, &ge) {
		return "git: " + ge.Words()
	}
	return err.Error()
}
