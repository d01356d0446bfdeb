package sessionfiles

import (
	"bytes"
	"context"
	"io"
)

// tailChunk is how much of a file backLines reads at a time, from its end.
const tailChunk = 64 << 10

// backLines hands out a file's lines from the last to the first, reading
// the file backwards in tailChunk pieces. It holds at most one line of up
// to lineHead bytes and one chunk: a longer line is dropped while its start
// is looked for, and then only its head is read again (ReadAt), as
// sessionLines hands out the head of a long line going forwards. A line is
// handed out only once the LF before it (or the file's start) is found.
type backLines struct {
	ctx context.Context
	r   io.ReaderAt
	// pos is where the unread part of the file ends.
	pos int64
	// mem[lo:hi] holds the bytes [pos, pos+hi-lo) read and not handed out.
	mem    []byte
	lo, hi int
	// head holds the head of the last long line handed out.
	head []byte
	done bool
	// read counts the bytes read, for tests.
	read int64
}

// backLine is one line: its bytes without the line ending (the first
// lineHead of them when whole is false), and where it is in the file, line
// ending excluded.
type backLine struct {
	text       []byte
	whole      bool
	start, end int64
	// last is the line's last byte that is not white space.
	last byte
}

func newBackLines(ctx context.Context, r io.ReaderAt, size int64) *backLines {
	mem := make([]byte, lineHead+tailChunk)
	return &backLines{ctx: ctx, r: r, pos: size, mem: mem, lo: len(mem), hi: len(mem)}
}

// prev returns the line before the last one handed out, io.EOF before the
// first line, or ctx's error when it ended. The text is valid until the
// next call. Blank lines are handed out too.
func (b *backLines) prev() (backLine, error) {
	if b.done {
		return backLine{}, io.EOF
	}
	end := b.pos + int64(b.hi-b.lo)
	long := false
	var last byte
	for {
		buf := b.mem[b.lo:b.hi]
		i := bytes.LastIndexByte(buf, '\n')
		if i >= 0 || b.pos == 0 {
			text := buf[i+1:]
			b.hi = b.lo + max(i, 0)
			b.done = i < 0
			start := b.pos + int64(i) + 1
			switch {
			case long:
				return b.longLine(start, end, last)
			case len(text) >= lineHead:
				text = bytes.TrimRight(text, "\r\n")
				return backLine{text: text[:min(len(text), lineHead)], whole: len(text) < lineHead, start: start, end: end, last: lastNonSpace(text, 0)}, nil
			}
			text = bytes.TrimRight(text, "\r\n")
			return backLine{text: text, whole: true, start: start, end: end, last: lastNonSpace(text, 0)}, nil
		}
		if !long && len(buf) >= lineHead {
			// Longer than a head: keep none of it, only look for its start.
			long, last = true, lastNonSpace(bytes.TrimRight(buf, "\r\n"), 0)
		}
		if long {
			b.lo, b.hi = len(b.mem), len(b.mem)
		}
		if err := b.readChunk(); err != nil {
			return backLine{}, err
		}
	}
}

// readChunk reads the chunk before pos in front of what is kept.
func (b *backLines) readChunk() error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	n := int(min(int64(tailChunk), b.pos))
	if b.lo < n {
		// Move what is kept to the end of mem, making room before it.
		kept := copy(b.mem[len(b.mem)-(b.hi-b.lo):], b.mem[b.lo:b.hi])
		b.lo, b.hi = len(b.mem)-kept, len(b.mem)
	}
	if _, err := b.r.ReadAt(b.mem[b.lo-n:b.lo], b.pos-int64(n)); err != nil {
		return err
	}
	b.read += int64(n)
	b.pos -= int64(n)
	b.lo -= n
	return nil
}

// longLine reads a long line's head again.
func (b *backLines) longLine(start, end int64, last byte) (backLine, error) {
	n := min(int64(lineHead), end-start)
	if cap(b.head) < int(n) {
		b.head = make([]byte, lineHead)
	}
	head := b.head[:n]
	if _, err := b.r.ReadAt(head, start); err != nil {
		return backLine{}, err
	}
	b.read += n
	return backLine{text: head, start: start, end: end, last: last}, nil
}

// whole reads a line handed out in part in full, without its line ending.
func (b *backLines) whole(l backLine) ([]byte, error) {
	if l.whole {
		return l.text, nil
	}
	data := make([]byte, l.end-l.start)
	if _, err := b.r.ReadAt(data, l.start); err != nil {
		return nil, err
	}
	b.read += int64(len(data))
	return bytes.TrimRight(data, "\r\n"), nil
}
