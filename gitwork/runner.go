package gitwork

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Runner runs git in a folder of the machine the folder is on. The app has
// two: Local, and one over SSH for a remote tab. Paths it is given (dir,
// the files named in env) are that machine's paths.
type Runner interface {
	// Git runs git with args in dir and returns its standard output. env
	// adds variables (NAME=value) to git's environment; stdin, when not nil,
	// is its standard input. A failure is a *GitError with git's own words.
	Git(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error)
	// Remove deletes a file this package made (a temporary index); a file
	// already gone is not an error.
	Remove(ctx context.Context, path string) error
}

// Placed is a Runner that says which machine it runs git on (a host's
// name); a runner that is not Placed runs on this one. Two machines may
// have repositories at the same path: what this package keeps per
// repository is kept per machine and path.
type Placed interface {
	Place() string
}

// GitError is git refusing: the command and what git said, so the window
// can show git's own words.
type GitError struct {
	Args   []string
	Stderr string
	// Stdout is what git printed before it failed: a merge's conflicts
	// are said there.
	Stdout string
	Exit   int
	Err    error // set when git could not be run at all
}

func (e *GitError) Error() string {
	words := e.said()
	if words == "" && e.Err != nil {
		words = e.Err.Error()
	}
	if words == "" {
		words = fmt.Sprintf("exit status %d", e.Exit)
	}
	return "git " + e.Subcommand() + ": " + words
}

func (e *GitError) said() string {
	if w := strings.TrimSpace(e.Stderr); w != "" {
		return w
	}
	return strings.TrimSpace(e.Stdout)
}

// Subcommand is the git command that failed ("commit"), past the global
// options.
func (e *GitError) Subcommand() string {
	for i := 0; i < len(e.Args); i++ {
		a := e.Args[i]
		switch {
		case a == "-c" || a == "-C":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// Words is what git said, for a dialog.
func (e *GitError) Words() string {
	if w := e.said(); w != "" {
		return w
	}
	return e.Error()
}

// Local runs the git found on PATH on this machine.
type Local struct {
	// Program is git's path; empty means "git" from PATH.
	Program string
}

// inheritedGitVariables would point git at another repository than the
// folder's: set when the app was started from a git hook or an alias.
var inheritedGitVariables = []string{
	"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_PREFIX=", "GIT_NAMESPACE=", "GIT_COMMON_DIR=",
	"GIT_CEILING_DIRECTORIES=", "GIT_LITERAL_PATHSPECS=", "GIT_GLOB_PATHSPECS=",
	"GIT_NOGLOB_PATHSPECS=", "GIT_ICASE_PATHSPECS=", "GIT_EDITOR=", "GIT_PAGER=",
}

func (l Local) Git(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	program := l.Program
	if program == "" {
		program = "git"
	}
	cmd := exec.CommandContext(ctx, program, args...)
	// Cancelled, git is interrupted, not killed: it removes its .lock files
	// (a kill would leave them, and every git after would refuse, the
	// user's too); WaitDelay kills one that does not end.
	cmd.Cancel = func() error { return interrupt(cmd.Process) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = dir
	cmd.Env = withoutInherited(os.Environ())
	cmd.Env = append(cmd.Env, "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat")
	cmd.Env = append(cmd.Env, env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	err := cmd.Run()
	if err == nil {
		return out.Bytes(), nil
	}
	ge := &GitError{Args: args, Stderr: errb.String(), Stdout: out.String(), Exit: -1}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		ge.Exit = exit.ExitCode()
	} else {
		ge.Err = err
	}
	if ctx.Err() != nil {
		ge.Err = ctx.Err()
	}
	return out.Bytes(), ge
}

func (Local) Remove(_ context.Context, path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func withoutInherited(environ []string) []string {
	kept := environ[:0:0]
next:
	for _, kv := range environ {
		for _, prefix := range inheritedGitVariables {
			if strings.HasPrefix(kv, prefix) {
				continue next
			}
		}
		kept = append(kept, kv)
	}
	return kept
}
