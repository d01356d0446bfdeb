package rpcconn

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"

	"knightcode.ai/desktop/proctree"
)

// spawn runs argv as the agent, isolated (its own process group on Unix)
// and tagged for proctree, with pipes of our own for its stdin, stdout and
// stderr, and starts the connection's three goroutines: the stderr copier,
// the stdout reader (readLoop) and the waiter (waitLoop).
func (c *Conn) spawn(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.opts.Dir
	cmd.Env = append(os.Environ(), c.opts.Env...)
	if c.opts.ExactEnv {
		cmd.Env = append([]string(nil), c.opts.Env...)
	}
	cmd.Env = append(cmd.Env, proctree.EnvVar(c.tag))
	isolate(cmd)

	// Our own pipes rather than StdinPipe/StdoutPipe: Wait must not close
	// stdout under the reader, and closing stdin must not wait for Wait.
	// stderr too: exec's copying goroutine would hold Wait for as long as
	// a tool keeps the agent's stderr open.
	var pipes []*os.File
	closeAll := func() {
		for _, f := range pipes {
			f.Close()
		}
	}
	for range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return err
		}
		pipes = append(pipes, r, w)
	}
	stdinR, stdinW, stdoutR, stdoutW, stderrR, stderrW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	if err := startProcess(cmd); err != nil {
		closeAll()
		kind := NotExecutable
		if errors.Is(err, fs.ErrNotExist) {
			kind = NotFound
		}
		return &StartError{Kind: kind, Path: c.path, Err: errors.Unwrap(err), StderrTail: c.stderr.String()}
	}
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()
	c.cmd, c.stdin, c.stdout = cmd, stdinW, newWatchedReader(stdoutR)
	c.stderrPipe = newWatchedReader(stderrR)
	c.w = newWriter(stdinW)
	go copyStderr(c.stderr, c.stderrPipe, c.stderrDone)
	go c.readLoop()
	go c.waitLoop()
	return nil
}
