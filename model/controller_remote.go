package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

// remoteAgent is an agent run on an SSH host: how it is started, and the
// local copies of its session files that the browser and the tree read.
type remoteAgent struct {
	spec   remote.Spec
	mirror *remote.SessionMirror
}

// NewRemoteController prepares a controller whose agent runs on an SSH
// host, in spec's folder there; mirrorDir holds local copies of the host's
// session files.
func NewRemoteController(s *Session, ui UI, spec remote.Spec, mirrorDir string) *Controller {
	c := NewController(s, ui, spec.Options())
	c.remote = &remoteAgent{spec: spec, mirror: remote.NewSessionMirror(spec.Host, mirrorDir)}
	return c
}

// SetRemoteArgs changes the arguments the next start or Restart gives the
// agent on its host (--approve, for one); the host, folder and the session
// roots the arguments named at first stay.
func (c *Controller) SetRemoteArgs(args []string) {
	if c.remote == nil {
		return
	}
	spec := c.remote.spec
	spec.Args = args
	c.SetOptions(spec.Options())
}

// Remote is the SSH host and folder the agent runs in, if it runs on one;
// a nil controller (no agent chosen yet) runs none.
func (c *Controller) Remote() (remote.Spec, bool) {
	if c == nil || c.remote == nil {
		return remote.Spec{}, false
	}
	return c.remote.spec, true
}

// remoteSessions lists the host's sessions, read over SSH.
func (c *Controller) remoteSessions(ctx context.Context, all bool) ([]sessionfiles.Info, []sessionfiles.Skipped, error) {
	r := c.remote
	roots, err := r.spec.Host.SessionRoots(ctx, r.spec.Args, r.spec.Dir)
	if err != nil {
		return nil, nil, err
	}
	return r.mirror.List(ctx, roots, r.spec.Dir, all)
}

// exportRemote has the agent on the host write the export where it writes
// them, then copies it to path on this computer.
func (c *Controller) exportRemote(ctx context.Context, conn *rpcconn.Conn, path string) (string, error) {
	there, err := conn.ExportHTML(ctx, "")
	if err != nil {
		return "", exportError(err)
	}
	if err := c.remote.spec.Host.CopyFile(ctx, there, path); err != nil {
		return "", fmt.Errorf("the agent wrote %s on %s, but copying it here failed: %w", there, c.remote.spec.Host.Name(), err)
	}
	return path, nil
}

// FetchFile copies a file the agent on the host names (a tool's full
// output) into dir on this computer, so it can be opened here; on this
// computer the path is the file.
func (c *Controller) FetchFile(ctx context.Context, path, dir string) (string, error) {
	if c.remote == nil {
		return path, nil
	}
	local := filepath.Join(dir, filepath.Base(path))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := c.remote.spec.Host.CopyFile(ctx, path, local); err != nil {
		return "", err
	}
	return local, nil
}

// SessionFile is a session file to read here: the file itself, or for an
// agent on a host, a local copy of it.
func (c *Controller) SessionFile(ctx context.Context, path string) (string, error) {
	if c.remote == nil {
		return path, nil
	}
	return c.remote.mirror.Local(ctx, path)
}
