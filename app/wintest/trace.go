package wintest

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"time"
)

// Mark is one line of the app's KNIGHTCODE_TRACE file:
// "<unix-nanos> <event> <arg>".
type Mark struct {
	T     time.Time
	Event string
	Arg   string
}

// N is the mark's argument as a number (-1 when it is not one).
func (m Mark) N() int {
	n, err := strconv.Atoi(m.Arg)
	if err != nil {
		return -1
	}
	return n
}

// ReadTrace reads a trace file; a missing file is no marks. A last line
// still being written is left out.
func ReadTrace(path string) Marks {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out Marks
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		if m, ok := parseMark(strings.TrimRight(line, "\n")); ok {
			out = append(out, m)
		}
	}
	return out
}

func parseMark(line string) (Mark, bool) {
	fields := strings.SplitN(line, " ", 3)
	if len(fields) < 2 {
		return Mark{}, false
	}
	ns, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return Mark{}, false
	}
	m := Mark{T: time.Unix(0, ns), Event: fields[1]}
	if len(fields) == 3 {
		m.Arg = fields[2]
	}
	return m, true
}

// Marks is a trace, oldest first.
type Marks []Mark

// First returns the first mark of event at or after from for which ok
// (nil: any) holds.
func (ms Marks) First(event string, from time.Time, ok func(Mark) bool) (Mark, bool) {
	for _, m := range ms {
		if m.Event == event && !m.T.Before(from) && (ok == nil || ok(m)) {
			return m, true
		}
	}
	return Mark{}, false
}

// Last returns the last mark of event.
func (ms Marks) Last(event string) (Mark, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Event == event {
			return ms[i], true
		}
	}
	return Mark{}, false
}

// Count counts the marks of event in [from, to).
func (ms Marks) Count(event string, from, to time.Time) int {
	n := 0
	for _, m := range ms {
		if m.Event == event && !m.T.Before(from) && m.T.Before(to) {
			n++
		}
	}
	return n
}
