package app

import (
	"context"

	"knightcode.ai/desktop/model"
)

// pointGitAtFolder points the tab's git at the folder its agent works in; the
// checkpoint before every prompt is the controller's BeforePrompt, set in
// connect before it starts.
func (t *Tab) pointGitAtFolder() {
	if spec, ok := remoteSpec(t.flags); ok {
		t.git.setFolder(spec.Dir, &spec.Host)
	} else {
		t.git.setFolder(t.started.dir, nil)
	}
}

// beforePrompt keeps the checkpoint; runs on the sending goroutine. What
// stops checkpoints is said once, as a toast: the prompt goes out anyway.
func (t *Tab) beforePrompt(ctx context.Context) {
	err := t.git.takeBeforePrompt(ctx, sessionKey(t.session.SessionFile()))
	if err == nil {
		return
	}
	t.do(func() {
		t.toasts.Show("No checkpoint of the files is kept before your messages: "+gitWords(err), model.NoticeWarning)
	})
}
