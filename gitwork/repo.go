package gitwork

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path"
	"strings"
)

// Repo is one folder's git: the repository the folder is in, or the app's
// own git directory for it when it is in none.
type Repo struct {
	run Runner
	// Root is the top of the work tree: the repository's, which may be
	// above the folder the tab works in, or the folder itself.
	Root string
	// GitDir is the repository's git directory (this work tree's, for a
	// linked worktree), or the app's own one.
	GitDir string
	// Own is true when the folder is in no repository and GitDir is the
	// app's: there is no index, HEAD or history of the user's to show.
	Own bool
}

// Options say where things this package makes go on the folder's machine.
type Options struct {
	// OwnDirs holds the git directories made for folders that are in no
	// repository (one per folder, named by a hash of its path). Empty means
	// such a folder gets no checkpoints: Open says so.
	OwnDirs string
}

// ErrNotRepository is Open's answer for a folder in no repository when
// Options.OwnDirs is empty.
var ErrNotRepository = errors.New("the folder is not in a git repository")

// Open finds the repository folder is in; a folder in none gets the app's
// own git directory under opts.OwnDirs, made on first use.
func Open(ctx context.Context, run Runner, folder string, opts Options) (*Repo, error) {
	out, err := run.Git(ctx, folder, nil, nil, "rev-parse", "--show-toplevel", "--absolute-git-dir")
	if err == nil {
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) == 2 && lines[0] != "" {
			return &Repo{run: run, Root: lines[0], GitDir: lines[1]}, nil
		}
		// A bare repository or a folder inside .git: no work tree to keep.
		return nil, errors.New("the folder is not inside a work tree of its git repository")
	}
	var ge *GitError
	if !errors.As(err, &ge) || ge.Err != nil {
		return nil, err // git itself is missing or could not run
	}
	if !strings.Contains(ge.Stderr, "not a git repository") {
		return nil, err
	}
	if opts.OwnDirs == "" {
		return nil, ErrNotRepository
	}
	sum := sha256.Sum256([]byte(folder))
	dir := path.Join(slashes(opts.OwnDirs), hex.EncodeToString(sum[:12])+".git")
	if _, err := run.Git(ctx, folder, nil, nil, "init", "-q", "--bare", dir); err != nil {
		return nil, err
	}
	return &Repo{run: run, Root: folder, GitDir: dir, Own: true}, nil
}

func slashes(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// git runs git at the top of the work tree with literal pathspecs (a file
// named "*" or ":x" is that file) and, for the app's own git directory,
// the variables that point git at it.
func (r *Repo) git(ctx context.Context, env []string, stdin []byte, args ...string) ([]byte, error) {
	if r.Own {
		env = append([]string{"GIT_DIR=" + r.GitDir, "GIT_WORK_TREE=" + r.Root}, env...)
	}
	// submodule.recurse off: a restore moves the superproject's files, never
	// the commits checked out in the user's submodules.
	full := append([]string{"--literal-pathspecs", "-c", "core.quotepath=false", "-c", "submodule.recurse=false"}, args...)
	return r.run.Git(ctx, r.Root, env, stdin, full...)
}

func (r *Repo) gitString(ctx context.Context, env []string, args ...string) (string, error) {
	out, err := r.git(ctx, env, nil, args...)
	return strings.TrimSpace(string(out)), err
}

// head is HEAD's commit; ok is false on a branch with no commit yet and in
// the app's own git directory.
func (r *Repo) head(ctx context.Context) (commit string, ok bool, err error) {
	if r.Own {
		return "", false, nil
	}
	out, err := r.git(ctx, nil, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && ge.Err == nil && ge.Exit == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// emptyTree is the tree with nothing in it, in this repository's hash.
func (r *Repo) emptyTree(ctx context.Context) (string, error) {
	out, err := r.git(ctx, nil, []byte{}, "mktree")
	return strings.TrimSpace(string(out)), err
}

// tempIndex names a fresh index file in the git directory: beside the
// user's index, so the rename git does into it stays on one filesystem.
func (r *Repo) tempIndex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return path.Join(slashes(r.GitDir), "knightcode-index-"+hex.EncodeToString(b[:]))
}

// Runner is what runs git for the repository: Local, or a host's.
func (r *Repo) Runner() Runner { return r.run }
