package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The fake agent paces its deltas with time.Sleep(--fake-delay), and on
// these machines any sleep from about 50 µs up lasts 1.1-1.6 ms: the fake
// alone streams some 700 message_update/s at --fake-delay=400us, and ~15,000/s
// with no delay. So the stream benchmark runs the fake with no delay behind
// this pacer, which relays its stdout and lets message_update records out at
// an exact average rate (a few at a time, as each wake-up allows: providers
// burst too). Everything else passes at once, in order.
//
// The app runs the pacer as its agent: benchui re-executes itself when
// these variables are set, with the app's agent arguments.
//
// With paceLogEnv set the pacer also notes, in that file, when it wrote each
// reply's last text delta: a line "<unix-nanos> last-text-delta <bytes>"
// (the trace format), the time being when the delta's last byte went into
// the pipe to the app and bytes the length of the message's text so far.
// That is when the last delta "arrives" at the app.
const (
	paceFakeEnv = "KNIGHTCODE_BENCH_PACE_FAKE" // the fake agent to run
	paceRateEnv = "KNIGHTCODE_BENCH_PACE_RATE" // message_update records a second
	paceLogEnv  = "KNIGHTCODE_BENCH_PACE_LOG"  // where to note each reply's last text delta
)

// lineKind sorts the records the pacer relays for its log.
type lineKind int

const (
	otherLine lineKind = iota
	textDeltaLine
	textEndLine // text_end or message_end: the delta before was the last
)

var (
	updatePrefix = []byte(`{"type":"message_update"`)
	startPrefix  = []byte(`{"type":"message_start"`)
	endPrefix    = []byte(`{"type":"message_end"`)
	textDeltaTag = []byte(`"assistantMessageEvent":{"type":"text_delta"`)
	textEndTag   = []byte(`"assistantMessageEvent":{"type":"text_end"`)
)

// textLength follows the text of the message being relayed.
type textLength struct{ n int }

// classify says what b is and, for a text delta, adds its length.
func (t *textLength) classify(b []byte) lineKind {
	switch {
	case bytes.HasPrefix(b, startPrefix):
		t.n = 0
	case bytes.HasPrefix(b, endPrefix):
		return textEndLine
	case bytes.HasPrefix(b, updatePrefix):
		if bytes.Contains(b, textEndTag) {
			return textEndLine
		}
		if bytes.Contains(b, textDeltaTag) {
			var rec struct {
				E struct {
					Delta string `json:"delta"`
				} `json:"assistantMessageEvent"`
			}
			if json.Unmarshal(b, &rec) == nil {
				t.n += len(rec.E.Delta)
			}
			return textDeltaLine
		}
	}
	return otherLine
}

// runPacer runs the fake named by paceFakeEnv with args and relays its
// stdout at the paced rate; it returns the fake's exit status.
func runPacer(args []string) int {
	rate, err := strconv.ParseFloat(os.Getenv(paceRateEnv), 64)
	if err != nil || rate <= 0 {
		fmt.Fprintf(os.Stderr, "benchui pacer: bad %s\n", paceRateEnv)
		return 2
	}
	cmd := exec.Command(os.Getenv(paceFakeEnv), args...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	// The fake must not see the pacer's variables: a fake that is benchui
	// itself (in tests) would pace again.
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != paceFakeEnv && name != paceRateEnv && name != paceLogEnv {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchui pacer:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "benchui pacer:", err)
		return 1
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		for s := range signals {
			cmd.Process.Signal(s)
		}
	}()

	var paceLog *os.File
	if path := os.Getenv(paceLogEnv); path != "" {
		if paceLog, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "benchui pacer:", err)
			return 1
		}
		defer paceLog.Close()
	}

	type line struct {
		b    []byte
		due  time.Time
		kind lineKind
		text int // for a text delta: the message's text length with it
	}
	lines := make(chan line, 1<<16)
	go func() {
		defer close(lines)
		interval := time.Duration(float64(time.Second) / rate)
		var next time.Time
		var text textLength
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			b, err := r.ReadBytes('\n')
			if len(b) > 0 {
				now := time.Now()
				due := now
				if bytes.HasPrefix(b, []byte(`{"type":"message_update"`)) {
					// A stream keeps its pace; one that paused starts afresh.
					if next.Before(now.Add(-10 * interval)) {
						next = now
					}
					due = next
					next = next.Add(interval)
				}
				l := line{b: b, due: due}
				if paceLog != nil {
					l.kind, l.text = text.classify(b), text.n
				}
				lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	// A text delta is in the pipe once the flush after it is done. It was
	// the last when the end of its text comes next: the log line is written
	// then, before that end (which repeats the whole text, and may take the
	// app a while to read) goes out.
	var (
		unflushed, noted bool
		deltaLen         int
		deltaAt          time.Time
	)
	flush := func() error {
		err := w.Flush()
		if unflushed {
			deltaAt, unflushed, noted = time.Now(), false, true
		}
		return err
	}
	for l := range lines {
		if wait := time.Until(l.due); wait > 0 {
			if err := flush(); err != nil {
				break
			}
			time.Sleep(wait)
		}
		switch l.kind {
		case textDeltaLine:
			unflushed, deltaLen = true, l.text
		case textEndLine:
			if unflushed {
				flush() // a broken pipe ends the loop at the next one
			}
			if noted && paceLog != nil {
				fmt.Fprintf(paceLog, "%d last-text-delta %d\n", deltaAt.UnixNano(), deltaLen)
			}
			noted = false
		}
		w.Write(l.b)
		if len(lines) == 0 {
			if err := flush(); err != nil {
				break
			}
		}
	}
	flush()
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}
