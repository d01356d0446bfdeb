package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"sync"
)

// run runs ssh with the remote command line cmdline, its stdout going to
// stdout, nothing on its stdin. A failure is an *Error (or ctx's error).
func (h Host) run(ctx context.Context, cmdline string, stdout io.Writer) error {
	_, err := h.runStderr(ctx, cmdline, stdout)
	return err
}

// runStderr is run that also returns the end of ssh's stderr.
func (h Host) runStderr(ctx context.Context, cmdline string, stdout io.Writer) (string, error) {
	cmd := h.command(ctx, cmdline)
	cmd.Stdout = stdout
	stderr := &boundedBuffer{limit: 64 << 10}
	cmd.Stderr = stderr
	err := cmd.Run()
	if err == nil {
		return stderr.String(), nil
	}
	return stderr.String(), h.runFailure(ctx, err, stderr.String())
}

func (h Host) runFailure(ctx context.Context, err error, stderr string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if e := h.classify(ee.ExitCode(), stderr, false); e != nil {
			return e
		}
		return &Error{Kind: Other, Host: h.Name(), Stderr: tail(sshLines(stderr)),
			Message: fmt.Sprintf("the command on %s failed (exit code %d)", h.Name(), ee.ExitCode())}
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return &Error{Kind: NoSSH, Host: h.Name(), Message: fmt.Sprintf(
			"the ssh program (%s) cannot be run: install the OpenSSH client (on Debian or Ubuntu: apt install openssh-client)", h.Program())}
	}
	return fmt.Errorf("ssh to %s: %w", h.Name(), err)
}

// boundedBuffer keeps the last limit bytes written to it.
type boundedBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.limit; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
