package sessionfiles

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineHead is how much of a line is looked at before deciding whether the
// rest is needed. Session lines are mostly a few hundred bytes; the long
// ones are tool results and pasted images, which the browser never decodes.
const lineHead = 64 << 10

// sessionLines splits a session file on LF with no limit on line length
// (bufio.Scanner would fail on a tool result of a few MB). A long line is
// handed out as its head first; the caller then either reads the rest or
// skips it, so skipped lines are never held in memory whole.
type sessionLines struct {
	br *bufio.Reader
	// long holds the current line when it did not fit in br's buffer.
	long []byte
	// partial is set while the current line's rest is unread.
	partial bool
	// terminated is false only for a last line with no LF: a cut-off write.
	terminated bool
	// last is the current line's last byte that is not space, which tells
	// whether a skipped unterminated line at least closed its object.
	last byte
	// number is the 1-based line number of the current line.
	number int
}

func newSessionLines(r io.Reader) *sessionLines {
	return &sessionLines{br: bufio.NewReaderSize(r, lineHead)}
}

// next returns the next non-blank line, or its first lineHead bytes when
// whole is false. The slice is valid until the next call. It returns io.EOF
// at the end.
func (l *sessionLines) next() (head []byte, whole bool, err error) {
	if l.partial {
		if _, err := l.skip(); err != nil {
			return nil, false, err
		}
	}
	for {
		l.number++
		chunk, err := l.br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			l.long = append(l.long[:0], chunk...)
			l.partial, l.terminated = true, false
			l.last = lastNonSpace(chunk, 0)
			return l.long, false, nil
		case err != nil && !errors.Is(err, io.EOF):
			return nil, false, err
		}
		l.terminated = err == nil
		line := bytes.TrimRight(chunk, "\r\n")
		l.last = lastNonSpace(line, 0)
		if len(bytes.TrimSpace(line)) > 0 {
			return line, true, nil
		}
		if err != nil {
			return nil, false, io.EOF
		}
	}
}

// rest reads the remainder of a line next handed out in part and returns the
// whole line.
func (l *sessionLines) rest() ([]byte, error) {
	for l.partial {
		chunk, err := l.br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return nil, err
		}
		l.long = append(l.long, chunk...)
		l.partial = errors.Is(err, bufio.ErrBufferFull)
		l.terminated = err == nil
		l.last = lastNonSpace(bytes.TrimRight(chunk, "\r\n"), l.last)
	}
	return bytes.TrimRight(l.long, "\r\n"), nil
}

// skip discards the remainder of a line handed out in part, and returns how
// many bytes it dropped.
func (l *sessionLines) skip() (int64, error) {
	var n int64
	for l.partial {
		chunk, err := l.br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return n, err
		}
		n += int64(len(chunk))
		l.partial = errors.Is(err, bufio.ErrBufferFull)
		l.terminated = err == nil
		l.last = lastNonSpace(bytes.TrimRight(chunk, "\r\n"), l.last)
	}
	return n, nil
}

// lastNonSpace returns b's last byte that is not white space, or prev when
// there is none (the chunk was only the line ending).
func lastNonSpace(b []byte, prev byte) byte {
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return b[i]
		}
	}
	return prev
}
