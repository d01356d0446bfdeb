package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

// Sessions lists the agent's session files, newest first, for the browser.
func (c *Controller) Sessions(ctx context.Context, all bool) ([]sessionfiles.Info, []sessionfiles.Skipped, error) {
	if c.remote != nil {
		return c.remoteSessions(ctx, all)
	}
	home, _ := os.UserHomeDir()
	opts := c.Options()
	return sessionfiles.List(ctx, sessionfiles.Roots(opts.Args, home), c.WorkDir(), all)
}

// WorkDir is the agent's working folder as it was started there: the
// folder "this folder" means.
func (c *Controller) WorkDir() string {
	if c.remote != nil {
		return c.remote.spec.Dir
	}
	dir := c.Options().Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return dir
}

// folderGoneUI is a UI that can offer what to do with a session whose
// folder is gone, when the agent refused it for that.
type folderGoneUI interface {
	SessionFolderGone(path string)
}

// SwitchSession opens another session file and loads its transcript.
func (c *Controller) SwitchSession(path string) {
	if c.current() != nil {
		c.paintFromFile(path)
	}
	c.do("Open session", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		cancelled, err := conn.SwitchSession(ctx, path)
		if err != nil || cancelled {
			c.unpaint(ctx, conn, path)
		}
		if err != nil {
			// pi: "Stored session working directory does not exist".
			if g, ok := c.ui.(folderGoneUI); ok && c.remote == nil && strings.Contains(err.Error(), "working directory does not exist") && sessionfiles.FolderGone(sessionfiles.Cwd(path)) {
				g.SessionFolderGone(path)
				return nil
			}
			return err
		}
		if cancelled {
			c.session.Notice(NoticeWarning, "An extension declined opening "+path+".")
			return nil
		}
		return c.reload(ctx, conn)
	})
}

// unpaint undoes a paint of path when the agent did not open it: the
// transcript it has is loaded again.
func (c *Controller) unpaint(ctx context.Context, conn *rpcconn.Conn, path string) {
	if c.session.CancelPaint(filepath.Clean(path)) {
		if err := c.loadHistory(ctx, conn, false); err != nil {
			c.report("Could not load the conversation", err)
		}
	}
}

// reload fetches state, transcript and stats after the agent changed
// session (switch, fork, clone, new).
func (c *Controller) reload(ctx context.Context, conn *rpcconn.Conn) error {
	st, err := conn.GetState(ctx)
	if err != nil {
		return err
	}
	c.session.SetState(st)
	if err := c.loadHistory(ctx, conn, false); err != nil {
		return err
	}
	c.loadStats(ctx, conn)
	return nil
}

// ForkMessages lists the user messages a fork can start from.
func (c *Controller) ForkMessages(ctx context.Context) ([]ForkMessage, error) {
	conn := c.current()
	if conn == nil {
		return nil, errNotRunning
	}
	msgs, err := conn.GetForkMessages(ctx)
	return forkMessages(msgs), err
}

// Fork branches off before a user message; that message's text goes back
// into the editor to be edited and sent again.
func (c *Controller) Fork(entryID string) {
	c.do("Fork", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		r, err := conn.Fork(ctx, entryID)
		if err != nil {
			return err
		}
		if r.Cancelled {
			c.session.Notice(NoticeWarning, "An extension declined the fork.")
			return nil
		}
		if err := c.reload(ctx, conn); err != nil {
			return err
		}
		c.ui.SetEditorText(r.Text)
		return nil
	})
}

// Clone copies the active branch into a new session.
func (c *Controller) Clone() {
	c.do("Clone", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		cancelled, err := conn.Clone(ctx)
		if err != nil {
			return err
		}
		if cancelled {
			c.session.Notice(NoticeWarning, "An extension declined the clone.")
			return nil
		}
		if err := c.reload(ctx, conn); err != nil {
			return err
		}
		c.session.Notice(NoticeInfo, "Cloned into a new session: "+c.session.SessionFile())
		return nil
	})
}

// Rename names the session.
func (c *Controller) Rename(name string) {
	c.do("Rename", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		if err := conn.SetSessionName(ctx, name); err != nil {
			return err
		}
		c.session.SetSessionName(name)
		return nil
	})
}

// ExportHTML writes the session as HTML to path and says where the agent
// wrote it.
func (c *Controller) ExportHTML(ctx context.Context, path string) (written string, err error) {
	conn := c.current()
	if conn == nil {
		return "", errNotRunning
	}
	if c.remote != nil {
		return c.exportRemote(ctx, conn, path)
	}
	written, err = conn.ExportHTML(ctx, path)
	return written, exportError(err)
}

func exportError(err error) error {
	if err != nil && strings.Contains(err.Error(), "in-memory") {
		return errors.New("this session is not saved to a file (the agent runs with --no-session), so it cannot be exported")
	}
	return err
}

// LastAnswer is the last reply's text, "" when there is none yet.
func (c *Controller) LastAnswer(ctx context.Context) (string, error) {
	conn := c.current()
	if conn == nil {
		return "", errNotRunning
	}
	text, _, err := conn.GetLastAssistantText(ctx)
	return text, err
}

// Compact summarises the conversation, with optional instructions.
func (c *Controller) Compact(instructions string) {
	c.do("Compact", longTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		_, err := conn.Compact(ctx, instructions)
		if err == nil {
			c.loadStats(ctx, conn)
		}
		return err
	})
}

// SetModes changes the agent's run settings that differ from the current.
func (c *Controller) SetModes(m AgentModes) {
	old := c.session.Modes()
	c.do("Change settings", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		var errs []error
		if m.AutoCompaction != old.AutoCompaction {
			errs = append(errs, conn.SetAutoCompaction(ctx, m.AutoCompaction))
		}
		if m.AutoRetry != old.AutoRetry {
			errs = append(errs, conn.SetAutoRetry(ctx, m.AutoRetry))
		}
		if m.SteeringMode != old.SteeringMode {
			errs = append(errs, conn.SetSteeringMode(ctx, m.SteeringMode))
		}
		if m.FollowUpMode != old.FollowUpMode {
			errs = append(errs, conn.SetFollowUpMode(ctx, m.FollowUpMode))
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		c.session.SetModes(m)
		return nil
	})
}

// AbortRetry stops a pending automatic retry.
func (c *Controller) AbortRetry() {
	c.do("Abort retry", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		return conn.AbortRetry(ctx)
	})
}

// RunBash runs a !command in the agent; its output streams into the
// transcript and reaches the model with the next prompt. While the agent
// starts, the command waits with the prompts held.
func (c *Controller) RunBash(command string) {
	if c.hold(heldSend{text: command, bash: true}) {
		return
	}
	conn := c.current()
	if conn == nil {
		c.ui.RestoreDraft("!" + command)
		c.session.Notice(NoticeWarning, "Not run: the agent is not running. Your command is back in the editor.")
		c.ui.Invalidate()
		return
	}
	c.runBash(conn, command)
}

func (c *Controller) runBash(conn *rpcconn.Conn, command string) {
	c.spawn(func() {
		ctx, cancel := context.WithTimeout(c.ctx, longTimeout)
		defer cancel()
		i := c.session.BashStart(command)
		c.ui.Invalidate()
		r, err := conn.Bash(ctx, command, func(delta string) {
			c.session.BashOutput(i, delta)
			c.ui.Invalidate()
		})
		c.session.BashEnd(i, r, err)
		c.ui.Invalidate()
	})
}

// AbortBash stops a running !command.
func (c *Controller) AbortBash() {
	c.do("Stop command", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		return conn.AbortBash(ctx)
	})
}

// Commands lists the agent's extension commands, prompt templates and skills.
func (c *Controller) Commands(ctx context.Context) ([]Command, error) {
	conn := c.current()
	if conn == nil {
		return nil, errNotRunning
	}
	cmds, err := conn.GetCommands(ctx)
	return commands(cmds), err
}

// Tree returns the session tree: from the agent, or from the session file
// for agents without get_tree.
func (c *Controller) Tree(ctx context.Context) (Tree, error) {
	roots, leaf, err := c.tree(ctx)
	if err != nil {
		return Tree{}, err
	}
	return Tree{Rows: treeRows(roots, leaf), LastID: lastAppended(roots)}, nil
}

func (c *Controller) tree(ctx context.Context) ([]rpcconn.TreeNode, string, error) {
	conn := c.current()
	if conn == nil {
		return nil, "", errNotRunning
	}
	tree, err := conn.GetTree(ctx)
	if errors.Is(err, rpcconn.ErrUnsupported) {
		file := c.session.SessionFile()
		if file == "" {
			return nil, "", errors.New("this session is not saved to a file, and the agent cannot list its tree")
		}
		return sessionfiles.ReadTree(file)
	}
	if err != nil {
		return nil, "", err
	}
	leaf := ""
	if tree.LeafID != nil {
		leaf = *tree.LeafID
	}
	return tree.Tree, leaf, nil
}

// TreeRowsSince returns the rows of the session entries after since, in
// the order they were appended: from the agent or, for agents without
// get_entries, from the session file. Their depth, branch and leaf marks
// are the caller's, who knows the rows before.
func (c *Controller) TreeRowsSince(ctx context.Context, since string) ([]TreeRow, error) {
	entries, err := c.entriesSince(ctx, since)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	rows := make([]TreeRow, len(entries))
	for i, e := range entries {
		rows[i] = entryRow(e)
	}
	return rows, nil
}

func (c *Controller) entriesSince(ctx context.Context, since string) ([]rpcconn.Entry, error) {
	conn := c.current()
	if conn == nil {
		return nil, errNotRunning
	}
	r, err := conn.GetEntries(ctx, since)
	if errors.Is(err, rpcconn.ErrUnsupported) {
		file := c.session.SessionFile()
		if file == "" {
			return nil, err
		}
		return sessionfiles.ReadEntriesSince(file, since)
	}
	return r.Entries, err
}
