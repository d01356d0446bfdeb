package sessionfiles

import (
	"io"
)

// What other readers of session files (the full-text index) need from this
// package: the files in the session folders, and their lines with the byte
// offsets where each ends, so a reader can resume where it stopped.

// Files returns the .jsonl files in roots where the agent writes sessions
// (a root itself and one folder down, as List reads them), every folder's.
// A relative root is taken from cwd. Files are not opened: some may be no
// session at all.
func Files(roots []string, cwd string) []string {
	files, _ := sessionFileList(roots, cwd, folderMatch{}, true)
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	return paths
}

// LineReader reads a session file's lines with no limit on their length and
// knows the offset in the file where the current line ends.
type LineReader struct {
	l     *sessionLines
	r     *countingReader
	start int64
}

// NewLineReader reads r, which starts at byte offset start of the file.
func NewLineReader(r io.Reader, start int64) *LineReader {
	cr := &countingReader{r: r}
	return &LineReader{l: newSessionLines(cr), r: cr, start: start}
}

// Next returns the next non-blank line without its line ending. When whole
// is false only the line's first 64 KiB are there: Rest reads the remainder,
// Skip (or the next call to Next) drops it unread. The slice is valid until
// the next call. At the end it returns io.EOF.
func (lr *LineReader) Next() (line []byte, whole bool, err error) { return lr.l.next() }

// Rest reads the remainder of a line Next handed out in part and returns the
// whole line.
func (lr *LineReader) Rest() ([]byte, error) { return lr.l.rest() }

// Skip drops the remainder of a line Next handed out in part.
func (lr *LineReader) Skip() error {
	_, err := lr.l.skip()
	return err
}

// End is the file offset just past the current line and its line ending,
// once the line is read whole or skipped.
func (lr *LineReader) End() int64 { return lr.start + lr.r.n - int64(lr.l.br.Buffered()) }

// Line is the current line's number, counting from 1 at the line the
// reader started at, blank lines included: start's line number in the file
// minus one, plus Line, is its number in the file.
func (lr *LineReader) Line() int { return lr.l.number }

// Terminated reports whether the current line ended with LF; only a last
// line cut off mid-write does not. Valid once the line is read whole or
// skipped.
func (lr *LineReader) Terminated() bool { return lr.l.terminated }

// TypeRole finds an entry's type and its message's role in the first bytes
// of a line, so a long line can be skipped without decoding it.
func TypeRole(head []byte) (typ, role string) { return prefixTypeRole(head) }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
