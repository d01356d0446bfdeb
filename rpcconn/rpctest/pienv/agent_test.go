package pienv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// agent is a bare-bones RPC driver for these tests: plain JSON lines over
// pipes, independent of package rpcconn.
type agent struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *bytes.Buffer
}

func startAgent(t *testing.T, env *Env) *agent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := env.Command(ctx, "--mode", "rpc")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{t: t, cmd: cmd, stdin: stdin, lines: make(chan []byte, 1024), stderr: &bytes.Buffer{}}
	cmd.Stderr = a.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(a.lines)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				a.lines <- bytes.TrimRight(line, "\r\n")
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		a.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(2 * time.Minute): // generous: node exits slowly on a busy machine
			t.Errorf("pi did not exit within 2 minutes of its stdin closing")
		}
		cancel()
	})
	return a
}

func (a *agent) send(v any) {
	a.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		a.t.Fatal(err)
	}
	if _, err := a.stdin.Write(append(b, '\n')); err != nil {
		a.t.Fatalf("write to pi: %v", err)
	}
}

// record is one stdout line, decoded loosely.
type record map[string]any

func (r record) str(key string) string { s, _ := r[key].(string); return s }

// waitFor reads records until match accepts one and returns it; every
// record read on the way is returned too, for tests that look at order.
func (a *agent) waitFor(what string, match func(record) bool) (record, []record) {
	a.t.Helper()
	var seen []record
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-a.lines:
			if !ok {
				a.t.Fatalf("pi closed stdout while waiting for %s; stderr:\n%s", what, a.stderr.String())
			}
			var r record
			if err := json.Unmarshal(line, &r); err != nil {
				a.t.Fatalf("pi wrote a line that is not JSON (%v): %q", err, line)
			}
			seen = append(seen, r)
			if match(r) {
				return r, seen
			}
		case <-timeout:
			a.t.Fatalf("timed out waiting for %s; stderr:\n%s", what, a.stderr.String())
		}
	}
}

func (a *agent) response(id string) record {
	a.t.Helper()
	r, _ := a.waitFor("response "+id, func(r record) bool { return r.str("type") == "response" && r.str("id") == id })
	if r["success"] != true {
		a.t.Fatalf("%s failed: %v", id, r)
	}
	return r
}

func (a *agent) uiRequest(method string) record {
	a.t.Helper()
	r, _ := a.waitFor("extension_ui_request "+method, func(r record) bool {
		return r.str("type") == "extension_ui_request" && r.str("method") == method
	})
	return r
}

func (a *agent) agentEnd() []record {
	a.t.Helper()
	_, seen := a.waitFor("agent_end", func(r record) bool { return r.str("type") == "agent_end" })
	return seen
}

func textDeltas(records []record) string {
	var b strings.Builder
	for _, r := range records {
		if r.str("type") != "message_update" {
			continue
		}
		ev, _ := r["assistantMessageEvent"].(map[string]any)
		if ev["type"] == "text_delta" {
			d, _ := ev["delta"].(string)
			b.WriteString(d)
		}
	}
	return b.String()
}
