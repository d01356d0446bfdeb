package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Every ssh connection costs a key exchange and a login (about 200 ms to
// the test sshd on this machine, more across a network); the changes pane
// runs a handful of git commands each time it looks. A Host made by
// SharedConnections lets its commands share one connection, ssh's own
// ControlMaster: the first command's ssh becomes the master and stays in
// the background persist after the last one ended; the others start in a
// few milliseconds.

// maxControlDir leaves room in a unix socket's path (104 bytes on macOS)
// for the "/" and the 40 characters of %C.
const maxControlDir = 60

// SharedConnections is h with its commands sharing one connection through
// a control socket in dir, a folder only this user can enter (made if
// missing, its mode set to 0700): the app's runtime or cache folder, with
// a short path. The master stays persist (0: a minute) after its last command. Meant
// for short commands (Git, the file functions); CloseShared ends the
// master. ssh on Windows has no ControlMaster: an error there.
func (h Host) SharedConnections(dir string, persist time.Duration) (Host, error) {
	if runtime.GOOS == "windows" {
		return h, errors.New("ssh on Windows cannot share connections")
	}
	if len(dir) > maxControlDir {
		return h, fmt.Errorf("%s is too long a path for ssh's control sockets (at most %d bytes)", dir, maxControlDir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return h, err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return h, err
	}
	if !fi.IsDir() {
		return h, fmt.Errorf("%s is not a folder", dir)
	}
	// Only the owner can change the mode: a folder another user made
	// for the sockets fails here.
	if err := os.Chmod(dir, 0o700); err != nil {
		return h, err
	}
	if persist <= 0 {
		persist = time.Minute
	}
	shared := h
	shared.Options = append([]string{
		"ControlMaster=auto",
		"ControlPath=" + filepath.Join(dir, "%C"),
		"ControlPersist=" + seconds(persist),
	}, h.Options...)
	return shared, nil
}

// CloseShared ends the master connection of a Host made by
// SharedConnections, if one runs: when the last tab on the host closes,
// or the app quits.
func (h Host) CloseShared(ctx context.Context) error {
	argv, err := h.Argv("")
	if err != nil {
		return err
	}
	// ssh -O exit … -- host: the same options, a control command instead
	// of a remote command.
	args := append([]string{"-O", "exit"}, argv[1:len(argv)-1]...)
	out, err := exec.CommandContext(ctx, argv[0], args...).CombinedOutput()
	if err == nil || ctx.Err() != nil {
		return ctx.Err()
	}
	// No master running is what was wanted.
	if s := string(out); strings.Contains(s, "No such file or directory") || strings.Contains(s, "Connection refused") {
		return nil
	}
	return fmt.Errorf("ssh -O exit %s: %v: %s", h.Name(), err, strings.TrimSpace(string(out)))
}
