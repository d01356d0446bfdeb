package rpcconn

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// resolveCommand finds the program to run and its whole argv: the agent
// with "--mode rpc" and Args, or the launcher's command. path is what
// messages name: the agent, or for a launcher Options.Path if set.
func resolveCommand(opts Options) (path string, argv []string, err error) {
	if opts.Launcher == nil {
		path, err = resolveAgent(opts.Path)
		if err != nil {
			return "", nil, err
		}
		return path, append([]string{path, "--mode", "rpc"}, opts.Args...), nil
	}
	argv = append([]string(nil), opts.Launcher.Command()...)
	if len(argv) == 0 {
		return "", nil, &StartError{Kind: NotFound, Path: opts.Path, Err: errors.New("the launcher gave no command")}
	}
	prog, err := resolveAgent(argv[0])
	if err != nil {
		se := err.(*StartError)
		if r := opts.Launcher.StartFailed(se); r != "" {
			se.Reason = r
		}
		return "", nil, se
	}
	argv[0] = prog
	path = opts.Path
	if path == "" {
		path = prog
	}
	return path, argv, nil
}

// launchFailure lets the launcher, if any, say why a start failed.
func (c *Conn) launchFailure(err error) error {
	var se *StartError
	if l := c.opts.Launcher; l != nil && errors.As(err, &se) && se.Reason == "" {
		se.Reason = l.StartFailed(se)
	}
	return err
}

// resolveAgent finds the program name (a path, or a name on PATH), or says
// in a StartError why it cannot run.
func resolveAgent(name string) (string, error) {
	if name == "" {
		return "", &StartError{Kind: NotFound, Path: name, Err: errors.New("no agent binary given")}
	}
	if strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		abs, err := filepath.Abs(name)
		if err == nil {
			name = abs
		}
		info, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", &StartError{Kind: NotFound, Path: name}
		case err != nil:
			return "", &StartError{Kind: NotExecutable, Path: name, Err: err}
		case info.IsDir():
			return "", &StartError{Kind: NotExecutable, Path: name, Err: errors.New("it is a folder")}
		}
	}
	path, err := exec.LookPath(name)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, exec.ErrNotFound) && !strings.ContainsRune(name, '/'):
		return "", &StartError{Kind: NotFound, Path: name, Err: errors.New("not on PATH")}
	case errors.Is(err, fs.ErrNotExist):
		return "", &StartError{Kind: NotFound, Path: name}
	default:
		return "", &StartError{Kind: NotExecutable, Path: name, Err: errors.Unwrap(err)}
	}
}
