package gitwork

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Status is how a file changed.
type Status byte

const (
	Added       Status = 'A'
	Modified    Status = 'M'
	Deleted     Status = 'D'
	Renamed     Status = 'R'
	TypeChanged Status = 'T' // a file became a link or the other way
)

// FileChange is one changed file between two states of the folder.
type FileChange struct {
	Path    string
	OldPath string // the name before a rename
	Status  Status
	Added   int // lines; 0 for a binary file
	Deleted int
	Binary  bool
	// ModeOnly is a change of the executable bit and nothing else.
	ModeOnly bool
}

// Changes compares a base (a checkpoint's commit, or "" for HEAD: the
// last commit, or nothing on a branch with no commit yet) with the folder
// as it is now, untracked files that are not ignored included. It returns
// the present state's tree too, for the file diffs that follow.
func (r *Repo) Changes(ctx context.Context, base string) (present string, files []FileChange, err error) {
	s, err := r.takeSnapshot(ctx)
	if err != nil {
		return "", nil, err
	}
	s.close(ctx)
	files, err = r.Between(ctx, base, s.Tree)
	return s.Tree, files, err
}

// Between compares two states: checkpoints' commits or trees ("" for
// HEAD), e.g. the checkpoints before two turns, for one turn's changes.
func (r *Repo) Between(ctx context.Context, from, to string) ([]FileChange, error) {
	fromTree, err := r.baseTree(ctx, from)
	if err != nil {
		return nil, err
	}
	toTree, err := r.baseTree(ctx, to)
	if err != nil {
		return nil, err
	}
	out, err := r.git(ctx, nil, nil, "diff-tree", "-r", "-z", "-M", "--raw", "--numstat", fromTree, toTree)
	if err != nil {
		return nil, err
	}
	return parseRawNumstat(out)
}

// baseTree resolves a base: a commit or tree id as it is (git takes
// either), "" for HEAD, which is the empty tree before the first commit.
func (r *Repo) baseTree(ctx context.Context, base string) (string, error) {
	if base != "" {
		return base, nil
	}
	head, ok, err := r.head(ctx)
	if err != nil {
		return "", err
	}
	if !ok {
		return r.emptyTree(ctx)
	}
	return head, nil
}

// parseRawNumstat reads `diff-tree -z --raw --numstat`: every file's raw
// entry (":old-mode new-mode old new status" then one path, two for a
// rename or copy), then every file's numstat entry in the same order
// ("added\tdeleted\tpath", or "added\tdeleted\t" then two paths).
func parseRawNumstat(out []byte) ([]FileChange, error) {
	fields := bytes.Split(out, []byte{0})
	var files []FileChange
	i := 0
	for i < len(fields) && len(fields[i]) > 0 && fields[i][0] == ':' {
		meta := strings.Fields(string(fields[i][1:]))
		if len(meta) != 5 || meta[4] == "" {
			return nil, fmt.Errorf("git diff-tree: unexpected entry %q", fields[i])
		}
		f := FileChange{Status: Status(meta[4][0])}
		paths := 1
		if f.Status == 'R' || f.Status == 'C' {
			paths = 2
		}
		if i+paths >= len(fields) {
			return nil, fmt.Errorf("git diff-tree: entry %q has no path", fields[i])
		}
		if paths == 2 {
			f.OldPath, f.Path = string(fields[i+1]), string(fields[i+2])
		} else {
			f.Path = string(fields[i+1])
		}
		if f.Status == 'C' {
			f.Status, f.OldPath = Added, ""
		}
		f.ModeOnly = f.Status == Modified && meta[0] != meta[1] && meta[2] == meta[3]
		files = append(files, f)
		i += 1 + paths
	}
	for n := range files {
		if i >= len(fields) {
			return nil, fmt.Errorf("git diff-tree: %d line counts for %d files", n, len(files))
		}
		parts := strings.SplitN(string(fields[i]), "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("git diff-tree: unexpected count %q", fields[i])
		}
		i++
		if parts[2] == "" {
			i += 2 // the rename's two paths, already read
		}
		if parts[0] == "-" {
			files[n].Binary = true
			continue
		}
		files[n].Added, _ = strconv.Atoi(parts[0])
		files[n].Deleted, _ = strconv.Atoi(parts[1])
	}
	return files, nil
}
