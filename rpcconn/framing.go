package rpcconn

import (
	"bytes"
	"io"
)

// LineReader splits an agent's stdout into records exactly as the protocol
// demands: on LF only (U+2028 and U+2029 are data), with one trailing CR
// stripped, and no limit on record size. bufio.Scanner is not used because
// its token limit would turn a large tool output into a fatal error.
type LineReader struct {
	r   io.Reader
	buf []byte
	// start and end delimit unread bytes in buf.
	start, end int
	err        error
}

const initialLineBuffer = 64 << 10

// NewLineReader returns a LineReader reading from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: r, buf: make([]byte, initialLineBuffer)}
}

// Next returns the next non-blank record without its line ending. The
// returned slice is valid only until the following call. At the end of the
// stream a final record without LF is still returned; then Next reports
// io.EOF (or the read error).
func (l *LineReader) Next() ([]byte, error) {
	l.shrink()
	scanFrom := l.start
	for {
		if i := bytes.IndexByte(l.buf[scanFrom:l.end], '\n'); i >= 0 {
			lineEnd := scanFrom + i
			line := l.buf[l.start:lineEnd]
			l.start = lineEnd + 1
			line = trimCR(line)
			if isBlank(line) {
				scanFrom = l.start
				continue
			}
			return line[:len(line):len(line)], nil
		}
		scanFrom = l.end
		if l.err != nil {
			line := trimCR(l.buf[l.start:l.end])
			l.start = l.end
			if !isBlank(line) {
				return line, nil
			}
			return nil, l.err
		}
		scanFrom -= l.start
		l.fill()
	}
}

// Keep gives the memory of the record Next returned last to the caller: it
// stays valid after later calls, and the reader goes on in a buffer of its
// own. Only the bytes read past that record are copied, so keeping a 50 MB
// record costs no copy of it.
func (l *LineReader) Keep() {
	unread := l.end - l.start
	fresh := make([]byte, max(initialLineBuffer, 2*unread))
	copy(fresh, l.buf[l.start:l.end])
	l.buf, l.start, l.end = fresh, 0, unread
}

// fill reads more data, first compacting or growing the buffer so a record
// of any size fits.
func (l *LineReader) fill() {
	if l.start > 0 {
		n := copy(l.buf, l.buf[l.start:l.end])
		l.start, l.end = 0, n
	}
	if l.end == len(l.buf) {
		grown := make([]byte, 2*len(l.buf))
		copy(grown, l.buf[:l.end])
		l.buf = grown
	}
	n, err := l.r.Read(l.buf[l.end:])
	l.end += n
	if err != nil {
		l.err = err
	}
}

// shrink gives back the memory of a huge record once it has been consumed,
// so one 8 MiB line does not pin 8 MiB for the rest of the session.
func (l *LineReader) shrink() {
	unread := l.end - l.start
	if len(l.buf) <= 4*initialLineBuffer || unread > initialLineBuffer/2 {
		return
	}
	small := make([]byte, initialLineBuffer)
	copy(small, l.buf[l.start:l.end])
	l.buf, l.start, l.end = small, 0, unread
}

func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// isBlank reports whether a line has nothing but JSON whitespace.
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
