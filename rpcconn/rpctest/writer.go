package rpctest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// writer owns stdout. Every record goes through one mutex so records never
// interleave, however many goroutines produce them; misbehaviour that must
// corrupt the framing on purpose goes through here too, so it is the only
// corruption.
type writer struct {
	mu sync.Mutex
	w  io.Writer
	// crlf and split are switched on for the length of one run by markers.
	crlf  bool
	split bool
}

func newWriter(w io.Writer) *writer { return &writer{w: w} }

// send writes v as one record.
func (w *writer) send(v any) {
	b, err := encode(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake-knightcode: cannot encode record: %v\n", err)
		return
	}
	b = literalSeparators(b)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeLocked(b)
}

// raw writes a line that is not a record, to test the reader's tolerance.
func (w *writer) raw(line string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeLocked([]byte(line))
}

func (w *writer) setModes(crlf, split bool) {
	w.mu.Lock()
	w.crlf, w.split = crlf, split
	w.mu.Unlock()
}

// enable switches modes on without switching off those a run already has.
func (w *writer) enable(crlf, split bool) {
	w.mu.Lock()
	w.crlf, w.split = w.crlf || crlf, w.split || split
	w.mu.Unlock()
}

// stall holds stdout for d, as a wedged agent would: responses to other
// commands wait too.
func (w *writer) stall(d time.Duration) {
	w.mu.Lock()
	time.Sleep(d)
	w.mu.Unlock()
}

// exit ends the process between records, never inside one, unless a record
// was meant to be cut.
func (w *writer) exit(code int) {
	w.mu.Lock()
	os.Exit(code)
}

func (w *writer) writeLocked(b []byte) {
	end := "\n"
	if w.crlf {
		end = "\r\n"
	}
	rec := make([]byte, 0, len(b)+2)
	rec = append(append(rec, b...), end...)
	if !w.split {
		w.w.Write(rec)
		return
	}
	w.writeSplit(rec)
}

// writeSplit writes the head of a record in chunks of 1 to 7 bytes, which cut
// UTF-8 sequences and JSON tokens, pausing now and then so the reader sees
// them apart. The rest goes in larger chunks so a huge record still finishes.
func (w *writer) writeSplit(rec []byte) {
	const tinyPart = 1024
	written, size := 0, 1
	for chunk := 1; len(rec) > 0; chunk++ {
		n := size
		if written >= tinyPart {
			n = 4096
		}
		n = min(n, len(rec))
		w.w.Write(rec[:n])
		rec, written = rec[n:], written+n
		size = size%7 + 1
		if written < tinyPart && chunk%8 == 0 {
			time.Sleep(50 * time.Microsecond)
		}
	}
}

// literalSeparators undoes encoding/json's unconditional escaping of U+2028
// and U+2029: the real agent writes them raw, and clients must cope.
func literalSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "2028":
				out = append(out, "\u2028"...)
				i += 5
				continue
			case "2029":
				out = append(out, "\u2029"...)
				i += 5
				continue
			}
		}
		// Any other escape is copied whole, so "\\u2028" (an escaped
		// backslash before text) is left alone.
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}
