package model

import (
	"os"
	"path/filepath"
	"strings"

	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/sessionfiles"
)

// paintFromFile reads the last screen of the session file at path and
// paints it (Session.PaintHistory) unless the agent's transcript came
// first: the window shows a session being opened at once, however long the
// agent takes over get_messages. Over SSH the file is on the host: it is
// painted from the local copy the session browser fetched, if there is
// one (older, at worst: the answer then adds or replaces); without one,
// fetching the whole file would be no quicker than the agent's answer.
func (c *Controller) paintFromFile(path string) {
	if path == "" {
		return
	}
	if c.remote != nil {
		if local, ok := c.remote.mirror.Copy(path); ok {
			c.paintFrom(path, local)
		}
		return
	}
	if !filepath.IsAbs(path) {
		// As the agent, started in its folder, reads it.
		dir := c.Options().Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		path = filepath.Join(dir, path)
	}
	path = filepath.Clean(path)
	c.paintFrom(path, path)
}

// paintFrom paints the session file the agent names path from the file at
// local (a copy of it, over SSH).
func (c *Controller) paintFrom(path, local string) {
	if st, err := os.Stat(local); err != nil || !st.Mode().IsRegular() {
		return // not a file name (pi also takes a session id), or gone
	}
	token := c.session.PaintToken()
	c.spawn(func() {
		msgs, err := sessionfiles.ReadTranscriptTail(c.ctx, local, PaintTail())
		if err != nil || len(msgs) == 0 {
			return // the agent's answer says what is wrong, if anything
		}
		// The title, until the rest is shown; a file whose start cannot
		// be read is titled by what is shown.
		first, _ := sessionfiles.FirstPrompt(local)
		// The turns before the end read, so that the cards are numbered
		// from the first paint (a linear file's replies, counted by the
		// lines' heads: some ms for 40 MB).
		replies, linear, err := sessionfiles.CountReplies(c.ctx, local)
		before := turnsBeforePaint(msgs, replies, linear && err == nil)
		// Under applyMu, as the agent's answer is applied: a paint comes
		// wholly before it or not at all.
		c.applyMu.Lock()
		painted := c.session.PaintHistory(path, msgs, first, before, token)
		c.applyMu.Unlock()
		if painted {
			trace.Mark("file-read", len(msgs))
			c.ui.Invalidate()
		}
	})
}

// sessionArg is the session file the agent's arguments open (--session),
// or "".
func sessionArg(args []string) string {
	for i := 0; i < len(args); i++ {
		if v, ok := strings.CutPrefix(args[i], "--session="); ok {
			return v
		}
		if args[i] == "--session" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
