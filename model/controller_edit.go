package model

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"knightcode.ai/desktop/rpcconn"
)

// SendEdited sends text as an edited version of an earlier prompt: the
// ordinal-th prompt of the conversation (from 0), whose text was original.
// The agent branches the session just before that prompt with its own
// fork, so the old branch stays in the session tree, and the edited text
// goes as the first prompt of the new branch. Whatever fails, the text
// comes back into the editor.
func (c *Controller) SendEdited(ordinal int, original, text string, sent []Image, accepted func()) {
	images := protoImages(sent)
	if c.session.Running() {
		c.ui.RestoreDraft(text)
		c.session.Notice(NoticeWarning, "Not sent: the agent is still working. Stop it or wait, then send the edited prompt again.")
		c.ui.Invalidate()
		return
	}
	c.do("Edit and send again", longTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		forks, err := conn.GetForkMessages(ctx)
		if err != nil {
			c.ui.RestoreDraft(text)
			return err
		}
		entry, ok := forkEntry(forks, ordinal, original)
		if !ok {
			c.ui.RestoreDraft(text)
			return errors.New("the agent does not list that prompt as one to branch from")
		}
		title := c.session.View(nil).SessionName
		if title == "" && len(forks) > 0 {
			title = forks[0].Text // the browser's title for a session without a name
		}
		r, err := conn.Fork(ctx, entry)
		if err != nil {
			c.ui.RestoreDraft(text)
			return err
		}
		if r.Cancelled {
			c.ui.RestoreDraft(text)
			c.session.Notice(NoticeWarning, "An extension declined to branch the conversation; the edited prompt is back in the editor.")
			return nil
		}
		c.nameFork(ctx, conn, title)
		if err := c.reload(ctx, conn); err != nil {
			c.ui.RestoreDraft(text)
			return err
		}
		c.ui.Invalidate()
		c.sendPrompt(conn, rpcconn.Prompt{Message: text, Images: images}, accepted, true)
		return nil
	})
}

// nameFork names the session a fork made after the one it came from, so
// the browser does not list two sessions with one title. An agent that
// cannot name sessions leaves it unnamed: nothing the user asked for failed.
func (c *Controller) nameFork(ctx context.Context, conn *rpcconn.Conn, title string) {
	title = OneLine(title, 80)
	if title == "" {
		return
	}
	name := ForkName(title)
	if conn.SetSessionName(ctx, name) == nil {
		c.session.SetSessionName(name)
	}
}

// editedMark ends the name of a session made by Edit & resend; further
// edits count on (" (edited 2)"). EditedMarkStart begins both, for those
// who must keep the mark in sight.
const (
	editedMark      = " (edited)"
	EditedMarkStart = " (edited"
)

// ForkName is the name of a session forked from one titled title: the
// title marked as edited, numbered when it was an edit already
// ("Fix it (edited)", "Fix it (edited 2)", ...).
func ForkName(title string) string {
	base, n := title, 1
	if b, ok := strings.CutSuffix(title, editedMark); ok {
		base, n = b, 2
	} else if i := strings.LastIndex(title, EditedMarkStart+" "); i >= 0 && strings.HasSuffix(title, ")") {
		if k, err := strconv.Atoi(title[i+len(EditedMarkStart+" ") : len(title)-1]); err == nil && k > 0 {
			base, n = title[:i], k+1
		}
	}
	if n == 1 {
		return base + editedMark
	}
	return base + EditedMarkStart + " " + strconv.Itoa(n) + ")"
}

// forkEntry finds the fork point of the ordinal-th prompt. The agent lists
// the prompts of the active branch in order, as the transcript shows them;
// the text must agree, else the nearest listed prompt with that text is
// taken.
func forkEntry(forks []rpcconn.ForkMessage, ordinal int, original string) (string, bool) {
	same := func(f rpcconn.ForkMessage) bool {
		return strings.TrimSpace(f.Text) == strings.TrimSpace(original)
	}
	if ordinal >= 0 && ordinal < len(forks) && same(forks[ordinal]) {
		return forks[ordinal].EntryID, true
	}
	best, bestD := "", -1
	for i, f := range forks {
		if !same(f) {
			continue
		}
		d := max(i-ordinal, ordinal-i)
		if bestD < 0 || d < bestD {
			best, bestD = f.EntryID, d
		}
	}
	return best, bestD >= 0
}
