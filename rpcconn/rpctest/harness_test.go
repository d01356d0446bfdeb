package rpctest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

// fake is the fake agent as a child process, read the way the protocol asks:
// a plain bufio.Reader split on '\n' only, with no line limit.
type fake struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // raw, line ending included
	stderr *syncBuffer
	exited chan struct{}
	err    error // from Wait, once exited is closed
	ids    int
}

// waitLimit bounds a wait for the fake agent to answer or exit: generous,
// for a busy machine; a bound to end a hung test, not a measure.
const waitLimit = time.Minute

func startFake(t *testing.T, args ...string) *fake {
	t.Helper()
	path, env := rpctest.Command()
	cmd := exec.Command(path, append([]string{"--mode", "rpc"}, args...)...)
	cmd.Env = env
	f := &fake{t: t, cmd: cmd, lines: make(chan []byte, 1<<16), stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = f.stderr
	var err error
	if f.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				f.lines <- line
			}
			if err != nil {
				close(f.lines)
				f.err = cmd.Wait()
				close(f.exited)
				return
			}
		}
	}()
	t.Cleanup(func() {
		f.stdin.Close()
		go func() {
			for range f.lines {
			}
		}()
		select {
		case <-f.exited:
		case <-time.After(waitLimit):
			cmd.Process.Kill()
			t.Errorf("fake agent did not exit after stdin closed")
		}
		// Under -race the child is instrumented too; its reports land here.
		if strings.Contains(f.stderr.String(), "DATA RACE") {
			t.Errorf("the fake agent has a data race:\n%s", f.stderr)
		}
	})
	return f
}

// exitCode waits for the process to end.
func (f *fake) exitCode() int {
	f.t.Helper()
	for range f.lines { // drain, or the reader blocks and never waits
	}
	select {
	case <-f.exited:
	case <-time.After(waitLimit):
		f.t.Fatal("fake agent did not exit")
	}
	var ee *exec.ExitError
	if errors.As(f.err, &ee) {
		return ee.ExitCode()
	}
	if f.err != nil {
		f.t.Fatal(f.err)
	}
	return 0
}

func (f *fake) sendRaw(s string) {
	f.t.Helper()
	if _, err := io.WriteString(f.stdin, s); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fake) send(v any) {
	f.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		f.t.Fatal(err)
	}
	f.sendRaw(string(b) + "\n")
}

// sendCommand sends a command with a fresh id and returns the id.
func (f *fake) sendCommand(typ string, kv ...any) string {
	f.t.Helper()
	f.ids++
	id := fmt.Sprintf("%s-%d", typ, f.ids)
	c := map[string]any{"id": id, "type": typ}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i].(string)] = kv[i+1]
	}
	f.send(c)
	return id
}

// call sends a command and returns its response; records read meanwhile are
// returned too, for tests that care about order.
func (f *fake) call(typ string, kv ...any) (resp record, before []record) {
	f.t.Helper()
	id := f.sendCommand(typ, kv...)
	before = f.until(func(r record) bool { return r.typ() == "response" && r["id"] == id })
	return before[len(before)-1], before[:len(before)-1]
}

// data calls a command that must succeed and returns its data.
func (f *fake) data(typ string, kv ...any) record {
	f.t.Helper()
	resp, _ := f.call(typ, kv...)
	if resp["success"] != true {
		f.t.Fatalf("%s failed: %v", typ, resp["error"])
	}
	d, _ := resp["data"].(map[string]any)
	return d
}

func (f *fake) rawLine() []byte {
	f.t.Helper()
	select {
	case line, ok := <-f.lines:
		if !ok {
			f.t.Fatalf("fake agent closed stdout; stderr:\n%s", f.stderr)
		}
		return line
	case <-time.After(waitLimit):
		f.t.Fatalf("no record from the fake agent in %v; stderr:\n%s", waitLimit, f.stderr)
	}
	return nil
}

func (f *fake) next() record {
	f.t.Helper()
	line := f.rawLine()
	var r record
	if err := json.Unmarshal(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), &r); err != nil {
		f.t.Fatalf("not a JSON record: %q", truncate(string(line)))
	}
	return r
}

// until reads records up to and including the first that matches.
func (f *fake) until(match func(record) bool) []record {
	f.t.Helper()
	var seen []record
	for {
		r := f.next()
		seen = append(seen, r)
		if match(r) {
			return seen
		}
	}
}

func (f *fake) untilType(typ string) []record {
	f.t.Helper()
	return f.until(func(r record) bool { return r.typ() == typ })
}

type record map[string]any

func (r record) typ() string { s, _ := r["type"].(string); return s }

// get walks nested objects: r.get("assistantMessageEvent", "type").
func (r record) get(path ...string) any {
	var v any = map[string]any(r)
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func (r record) str(path ...string) string { s, _ := r.get(path...).(string); return s }

func (r record) event() string { return r.str("assistantMessageEvent", "type") }

// textOf joins the text blocks of a message.
func textOf(msg any) string {
	m, _ := msg.(map[string]any)
	blocks, _ := m["content"].([]any)
	var b strings.Builder
	for _, x := range blocks {
		if blk, _ := x.(map[string]any); blk["type"] == "text" {
			b.WriteString(blk["text"].(string))
		}
	}
	return b.String()
}

// deltaText joins the text deltas among recs.
func deltaText(recs []record) string {
	var b strings.Builder
	for _, r := range recs {
		if r.event() == "text_delta" {
			b.WriteString(r.str("assistantMessageEvent", "delta"))
		}
	}
	return b.String()
}

func types(recs []record) []string {
	var ts []string
	for _, r := range recs {
		t := r.typ()
		if t == "message_update" {
			continue
		}
		if t == "message_start" || t == "message_end" {
			t += "(" + r.str("message", "role") + ")"
		}
		ts = append(ts, t)
	}
	return ts
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
