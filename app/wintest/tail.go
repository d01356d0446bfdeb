package wintest

import (
	"io"
	"os"
	"strings"
	"time"
)

// TraceTail reads a growing trace file incrementally, so it can be polled
// every millisecond without rereading what it has seen.
type TraceTail struct {
	path    string
	off     int64
	partial string
	Marks   Marks
}

// NewTraceTail follows the trace file at path.
func NewTraceTail(path string) *TraceTail { return &TraceTail{path: path} }

// Poll reads what was appended since the last call and returns the new
// marks (also appended to Marks).
func (t *TraceTail) Poll() Marks {
	f, err := os.Open(t.path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return nil
	}
	b, _ := io.ReadAll(f)
	t.off += int64(len(b))
	data := t.partial + string(b)
	end := strings.LastIndexByte(data, '\n')
	if end < 0 {
		t.partial = data
		return nil
	}
	t.partial = data[end+1:]
	var out Marks
	for _, line := range strings.Split(data[:end], "\n") {
		if m, ok := parseMark(line); ok {
			out = append(out, m)
		}
	}
	t.Marks = append(t.Marks, out...)
	return out
}

// WaitMark polls until a mark of event for which ok (nil: any) holds has
// arrived at or after from, or timeout passes.
func (t *TraceTail) WaitMark(event string, from time.Time, ok func(Mark) bool, timeout, interval time.Duration) (Mark, bool) {
	var found Mark
	hit := WaitFor(timeout, interval, func() bool {
		t.Poll()
		m, yes := t.Marks.First(event, from, ok)
		found = m
		return yes
	})
	return found, hit
}
