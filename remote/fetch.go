package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A host's answer is not trusted: a header is a short line, an announced
// size is at most maxFetchedFile, memory grows only as the bytes arrive,
// and a file is handed on only once what follows it (the next header, or
// the end) checks out.
const (
	maxFetchHeader = 32 // "F " and 20 digits, with room to spare
	maxFetchedFile = 1 << 30
)

// fetchScript writes, for each argument, "F SIZE\n" and the file's bytes
// (copied first, so that SIZE holds for a file being appended to), or
// "E\n" for one that cannot be read.
const fetchScript = `
t=$(mktemp "${TMPDIR:-/tmp}/knightcode-remote.XXXXXX") || exit 1;
trap 'rm -f "$t"' EXIT;
for f in "$@"; do
if cp -- "$f" "$t" 2>/dev/null; then n=$(wc -c <"$t"); printf 'F %s\n' $n; cat "$t"; else printf 'E\n'; fi;
done
`

// fetchFiles reads the remote files paths in one connection and hands
// each to got (nil data for one that could not be read). got must not
// keep data.
func (h Host) fetchFiles(ctx context.Context, paths []string, got func(i int, data []byte) error) error {
	for start := 0; start < len(paths); {
		end, size := start, 0
		for end < len(paths) && (end == start || size+len(paths[end]) < maxArgsSize) {
			size += len(paths[end]) + 3
			end++
		}
		err := h.fetchBatch(ctx, paths[start:end], func(i int, data []byte) error { return got(start+i, data) })
		if err != nil {
			return err
		}
		start = end
	}
	return nil
}

// maxArgsSize bounds the paths given to one remote command: sshd hands the
// whole command line to the shell as one argument, which Linux limits to
// 128 KiB.
const maxArgsSize = 48 << 10

// errFetchCut marks a listing that ended early: ssh's own failure, when
// there is one, says more.
var errFetchCut = errors.New("the listing ended early")

func (h Host) fetchBatch(ctx context.Context, paths []string, got func(i int, data []byte) error) error {
	run, stop := context.WithCancel(ctx)
	defer stop()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := parseFetched(bufio.NewReaderSize(pr, 64<<10), len(paths), got)
		if err != nil {
			// A host that breaks the format, or a file got refuses, ends
			// the command rather than being read to its end.
			stop()
		}
		pr.CloseWithError(errors.New("remote files: no longer read"))
		done <- err
	}()
	err := h.run(run, plainCommand(fetchScript, paths...), pw)
	pw.Close()
	perr := <-done
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case perr != nil && !errors.Is(perr, errFetchCut):
		return perr
	case err != nil:
		return err
	}
	return perr
}

// parseFetched reads n files as fetchScript writes them.
func parseFetched(r *bufio.Reader, n int, got func(int, []byte) error) error {
	if n == 0 {
		return nil
	}
	var buf bytes.Buffer
	size, err := readFetchHeader(r, 0, n)
	if err != nil {
		return err
	}
	for i := range n {
		var data []byte
		if size >= 0 {
			buf.Reset()
			if k, err := io.CopyN(&buf, r, size); err != nil {
				return fmt.Errorf("remote files: file %d of %d ended after %d of the %d bytes the host announced: %w", i+1, n, k, size, errFetchCut)
			}
			data = buf.Bytes()
			if data == nil {
				data = []byte{} // empty, not unreadable
			}
		}
		announced := size
		if i+1 < n {
			if size, err = readFetchHeader(r, i+1, n); err != nil {
				return err
			}
		} else if _, err := r.ReadByte(); err != io.EOF {
			if announced < 0 {
				return errors.New("remote files: the host sent more after saying the last file cannot be read")
			}
			return fmt.Errorf("remote files: the host sent more than the %d bytes it announced for the last file", announced)
		}
		if err := got(i, data); err != nil {
			return err
		}
	}
	return nil
}

// readFetchHeader reads the header of file i (of n): its size, or -1 for
// a file the host could not read.
func readFetchHeader(r *bufio.Reader, i, n int) (int64, error) {
	var line []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return 0, fmt.Errorf("remote files: the listing ended after %d of %d files: %w", i, n, errFetchCut)
		}
		if c == '\n' {
			break
		}
		if len(line) == maxFetchHeader {
			return 0, fmt.Errorf("remote files: the host sent %q… where the header of file %d of %d belongs (more bytes than it announced before?)", line, i+1, n)
		}
		line = append(line, c)
	}
	head := string(line)
	if head == "E" {
		return -1, nil
	}
	digits, ok := strings.CutPrefix(head, "F ")
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Errorf("remote files: the host sent %q where the header of file %d of %d belongs", head, i+1, n)
	}
	size, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || size > maxFetchedFile {
		return 0, fmt.Errorf("remote files: the host announced a file of %s bytes, over the limit of %s", digits, byteSize(maxFetchedFile))
	}
	return size, nil
}
