package gitwork

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// FileDiff is one file's unified diff, split into hunks so each can be
// reverted, staged or unstaged alone.
type FileDiff struct {
	// Header is the lines before the first hunk ("diff --git", index,
	// mode, rename and ---/+++ lines): every hunk's patch starts with it.
	Header []string
	Hunks  []Hunk
	Binary bool
}

// Hunk is one "@@ -a,b +c,d @@" section.
type Hunk struct {
	Header             string
	OldStart, OldLines int
	NewStart, NewLines int
	// Lines are the hunk's lines with their first character: ' ', '+',
	// '-', or '\' for "\ No newline at end of file".
	Lines []string
}

// diffFlags make a diff git apply can read back whatever the user's
// configuration says: no colour, no external diff or text conversion, the
// a/ b/ prefixes, three lines of context.
var diffFlags = []string{
	"--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/", "-U3",
}

// Diff is one file's change between two trees (Changes' base and present);
// oldPath is the name before a rename, "" otherwise.
func (r *Repo) Diff(ctx context.Context, from, to, path, oldPath string) (FileDiff, error) {
	fromTree, err := r.baseTree(ctx, from)
	if err != nil {
		return FileDiff{}, err
	}
	args := append([]string{"diff-tree", "-p", "-M"}, diffFlags...)
	toTree, err := r.baseTree(ctx, to)
	if err != nil {
		return FileDiff{}, err
	}
	args = append(args, fromTree, toTree, "--", path)
	if oldPath != "" && oldPath != path {
		args = append(args, oldPath)
	}
	out, err := r.git(ctx, nil, nil, args...)
	if err != nil {
		return FileDiff{}, err
	}
	return ParseDiff(out)
}

// IndexDiff is one file's unstaged change (index to work tree) or, with
// staged, its staged one (HEAD to index): the hunks Stage and Unstage take.
func (r *Repo) IndexDiff(ctx context.Context, path string, staged bool) (FileDiff, error) {
	args := append([]string{"diff", "--no-textconv"}, diffFlags...)
	if staged {
		args = append(args, "--cached")
	}
	args = append(args, "--", path)
	out, err := r.git(ctx, nil, nil, args...)
	if err != nil {
		return FileDiff{}, err
	}
	return ParseDiff(out)
}

// ParseDiff reads one file's unified diff as git writes it.
func ParseDiff(out []byte) (FileDiff, error) {
	var d FileDiff
	text := string(out)
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return d, nil
	}
	var h *Hunk
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "@@ ") {
			d.Hunks = append(d.Hunks, Hunk{Header: line})
			h = &d.Hunks[len(d.Hunks)-1]
			if err := h.parseHeader(); err != nil {
				return FileDiff{}, err
			}
			continue
		}
		if h == nil {
			if strings.HasPrefix(line, "Binary files ") || line == "GIT binary patch" {
				d.Binary = true
			}
			d.Header = append(d.Header, line)
			continue
		}
		h.Lines = append(h.Lines, line)
	}
	return d, nil
}

func (h *Hunk) parseHeader() error {
	// @@ -a[,b] +c[,d] @@ context
	end := strings.Index(h.Header[3:], " @@")
	if end < 0 {
		return fmt.Errorf("bad hunk header %q", h.Header)
	}
	ranges := strings.Fields(h.Header[3 : 3+end])
	if len(ranges) != 2 || ranges[0][0] != '-' || ranges[1][0] != '+' {
		return fmt.Errorf("bad hunk header %q", h.Header)
	}
	var err1, err2 error
	h.OldStart, h.OldLines, err1 = parseRange(ranges[0][1:])
	h.NewStart, h.NewLines, err2 = parseRange(ranges[1][1:])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("bad hunk header %q", h.Header)
	}
	return nil
}

func parseRange(s string) (start, lines int, err error) {
	a, b, ok := strings.Cut(s, ",")
	start, err = strconv.Atoi(a)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return start, 1, nil
	}
	lines, err = strconv.Atoi(b)
	return start, lines, err
}

// Patch is a patch of the file's header and hunk i alone, for git apply.
func (d FileDiff) Patch(i int) []byte {
	var b bytes.Buffer
	for _, l := range d.Header {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	h := d.Hunks[i]
	b.WriteString(h.Header)
	b.WriteByte('\n')
	for _, l := range h.Lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
