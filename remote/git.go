package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"knightcode.ai/desktop/gitwork"
)

// Git runs git on the host, for the changes pane and the checkpoints of a
// tab whose agent works there: a gitwork.Runner. Each call is one ssh
// connection with the Host's settings running a small /bin/sh script
// (gitScript) that cds into the folder and execs git; stdin, stdout and
// git's exit code pass through unchanged.
type Git struct {
	Host Host
	// Program is git's path on the host; "" means git on the PATH of a
	// plain ssh session, then the usual places a package manager puts it
	// (/usr/local/bin, /opt/homebrew/bin, /opt/local/bin).
	Program string
}

// GitRunner is a Git for h with git found on the host by itself.
func (h Host) GitRunner() gitwork.Runner { return Git{Host: h} }

var _ gitwork.Runner = Git{}

// How words reach the script. The account's login shell parses the
// command line, and csh cannot take a newline inside quotes, so a word
// with a newline (a file called "a\nb", a folder with one) is sent with
// its newlines as \n and its backslashes as \\; the script's first
// argument lists the numbers of the words sent so, and it turns them back
// with printf %b. Every other word is sent as it is, quoted by QuoteShell,
// and costs the script nothing.
const decodeWords = `
enc=$1; shift;
if [ -n "$enc" ]; then
i=0; n=$#;
while [ "$i" -lt "$n" ]; do
i=$((i+1)); a=$1; shift;
case " $enc " in *" $i "*) a=$(printf '%b' "$a"; printf x); a=${a%x} ;; esac;
set -- "$@" "$a";
done;
fi;
`

// markerLazy is markerFunction without its fork up front: m is only
// called on the way to an error.
const markerLazy = `
p=` + markerPrefix + `;
m() { nl=$(printf '\nx'); nl=${nl%x}; s=$*; case $s in *"$nl"*) s=$(printf '%s' "$s" | tr '\n' '\001') ;; esac; printf '%s %s\n' "$p" "$s" >&2; };
`

// gitRanMarker is the line the script writes to stderr just before it
// execs git: an exit after it is git's, one without it is the
// connection's or the script's.
const gitRanMarker = "git"

// gitScript runs git. Its words (after decodeWords): the folder, git's
// program ("" to look for it), the number of NAME=value variables, the
// variables, then git's arguments. The folder "" or "~" is the home
// folder, "~/…" and a relative path are taken from there. Variables that
// would point git at another repository are unset, as gitwork.Local does.
const gitScript = decodeWords + markerLazy + `
dir=$1 git=$2 ne=$3; shift 3;
unset CDPATH GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_PREFIX GIT_NAMESPACE GIT_COMMON_DIR GIT_CEILING_DIRECTORIES GIT_LITERAL_PATHSPECS GIT_GLOB_PATHSPECS GIT_NOGLOB_PATHSPECS GIT_ICASE_PATHSPECS GIT_EDITOR;
case $dir in "" | "~") dir=$HOME ;; "~/"*) dir=$HOME/${dir#"~/"} ;; /*) ;; *) dir=${HOME%/}/$dir ;; esac;
if [ ! -d "$dir" ]; then m error folder-missing: there is no folder "$dir"; exit 1; fi;
cd "$dir" 2>/dev/null || { m error folder-denied: cannot enter the folder "$dir"; exit 1; };
if [ -z "$git" ]; then
if command -v git >/dev/null 2>&1; then git=git; else for d in /usr/local/bin /opt/homebrew/bin /opt/local/bin; do if [ -x "$d/git" ]; then git=$d/git; break; fi; done; fi;
if [ -z "$git" ]; then m error git-not-found: git is not installed "(not on the PATH $PATH)"; exit 1; fi;
elif [ ! -f "$git" ] || [ ! -x "$git" ]; then m error git-not-found: there is no git program at "$git"; exit 1;
fi;
while [ "$ne" -gt 0 ]; do export "$1"; shift; ne=$((ne-1)); done;
GIT_TERMINAL_PROMPT=0 GIT_PAGER=cat PAGER=cat; export GIT_TERMINAL_PROMPT GIT_PAGER PAGER;
printf '%s ` + gitRanMarker + `\n' "$p" >&2;
exec "$git" "$@"
`

// removeScript deletes the file $1 ("~/…" is in the home folder).
const removeScript = decodeWords + `
f=$1;
case $f in "~/"*) f=$HOME/${f#"~/"} ;; esac;
exec rm -f -- "$f"
`

// envName is what the script can export.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// Git runs git with args in dir on the host; see gitwork.Runner. A
// failure is a *gitwork.GitError: with git's exit code and words when git
// ran, or with Err set to this package's *Error (the host is down, the
// key was refused, the folder is not there, git is not installed) when it
// did not.
func (g Git) Git(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		return nil, &gitwork.GitError{Args: args, Exit: -1, Err: err}
	}
	for _, kv := range env {
		if !envName.MatchString(kv) {
			return fail(fmt.Errorf("%q is not a NAME=value variable", kv))
		}
	}
	words := append([]string{dir, g.Program, strconv.Itoa(len(env))}, env...)
	cmdline, err := scriptCommand(gitScript, append(words, args...))
	if err != nil {
		return fail(err)
	}
	cmd := g.Host.command(ctx, cmdline)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout bytes.Buffer
	stderr := &headTail{head: 16 << 10, tail: boundedBuffer{limit: 64 << 10}}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	err = cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	return stdout.Bytes(), g.failure(ctx, args, err, stdout.String(), stderr)
}

// failure is the GitError for a command that did not succeed.
func (g Git) failure(ctx context.Context, args []string, err error, stdout string, stderr *headTail) *gitwork.GitError {
	h := g.Host
	all := stderr.tail.String()
	// Stderr is git's words only when git ran; before that it was ssh's,
	// which Err words better (with their tail).
	ge := &gitwork.GitError{Args: args, Stdout: stdout, Exit: -1}
	if ctx.Err() != nil {
		ge.Err = ctx.Err()
		return ge
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		ge.Err = h.runFailure(ctx, err, all)
		return ge
	}
	code := ee.ExitCode()
	ran := slices.Contains(markerLines(stderr.headString()), gitRanMarker)
	if !ran {
		// The script stopped before git (no folder, no git), or ssh
		// never got there.
		if e := h.classify(code, all, false); e != nil {
			ge.Err = e
		} else {
			ge.Err = &Error{Kind: Other, Host: h.Name(), Stderr: tail(sshLines(all)),
				Message: fmt.Sprintf("git could not be started on %s (exit code %d)", h.Name(), code)}
		}
		return ge
	}
	if code == sshExitCode {
		// git itself may exit 255; ssh does when the connection dropped
		// while git ran, and says so.
		if e := h.classify(code, all, true); e != nil && e.Kind == ConnectionLost {
			ge.Err = e
			return ge
		}
	}
	ge.Exit, ge.Stderr = code, withoutMarkers(all)
	return ge
}

// Remove deletes path on the host; a file already gone is not an error.
func (g Git) Remove(ctx context.Context, path string) error {
	cmdline, err := scriptCommand(removeScript, []string{path})
	if err != nil {
		return err
	}
	return g.Host.run(ctx, cmdline, nil)
}

// scriptCommand is the remote command line running script with words as
// its arguments, sent as decodeWords reads them.
func scriptCommand(script string, words []string) (string, error) {
	sent := make([]string, 0, len(words)+1)
	var encoded []string
	for i, w := range words {
		if strings.IndexByte(w, 0) >= 0 {
			return "", fmt.Errorf("an argument holds a NUL byte: %q", w)
		}
		if strings.Contains(w, "\n") {
			w = strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(w)
			encoded = append(encoded, strconv.Itoa(i+1))
		}
		sent = append(sent, w)
	}
	return plainCommand(script, append([]string{strings.Join(encoded, " ")}, sent...)...), nil
}

// withoutMarkers is stderr without the script's own lines: git's words
// (and whatever ssh or the login said).
func withoutMarkers(stderr string) string {
	var kept []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(line, markerPrefix) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "")
}

// headTail keeps the first head bytes written to it, where the script's
// marker is even when git then says more than tail holds, and the last
// tail.limit bytes.
type headTail struct {
	head  int
	first []byte
	tail  boundedBuffer
}

func (w *headTail) Write(p []byte) (int, error) {
	if n := min(w.head-len(w.first), len(p)); n > 0 {
		w.first = append(w.first, p[:n]...)
	}
	return w.tail.Write(p)
}

func (w *headTail) headString() string { return string(w.first) }

// Place is the host git runs on, so gitwork keeps apart a repository there
// and one at the same path on this computer.
func (g Git) Place() string { return "ssh:" + g.Host.Name() }
