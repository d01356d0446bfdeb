package rpctest_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCrashExitsMidStream(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	f.call("prompt", "message", "[[crash]]")
	deltas := 0
	for line := range f.lines {
		if bytes.Contains(line, []byte(`"text_delta"`)) {
			deltas++
		}
		if bytes.Contains(line, []byte(`"agent_end"`)) {
			t.Fatal("the run finished instead of crashing")
		}
	}
	if code := f.exitCode(); code != 3 || deltas == 0 {
		t.Errorf("exit code %d after %d deltas, want 3 after a few", code, deltas)
	}
	if !strings.Contains(f.stderr.String(), "simulated crash") {
		t.Errorf("stderr = %q", f.stderr)
	}
}

func TestGarbageMidStreamThenRecovery(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	f.call("prompt", "message", "[[garbage]]")
	var notJSON, untyped int
	for {
		line := bytes.TrimSpace(f.rawLine())
		var r record
		if json.Unmarshal(line, &r) != nil {
			notJSON++
			continue
		}
		if r.typ() == "" {
			untyped++
		}
		if r.typ() == "agent_settled" {
			break
		}
	}
	if notJSON != 1 || untyped != 1 {
		t.Errorf("%d non-JSON and %d untyped lines, want one of each", notJSON, untyped)
	}
}

// The framing hazards: raw U+2028/U+2029, CRLF endings and records cut into
// tiny writes, all in one run; then one text_delta of 9 MiB.
func TestFramingHazards(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	f.call("prompt", "message", "[[u2028]] [[crlf]] [[split-writes]]")
	var text strings.Builder
	sawSeparator := false
	for {
		line := f.rawLine()
		if !bytes.HasSuffix(line, []byte("\r\n")) {
			t.Fatalf("a line without CRLF: %q", truncate(string(line)))
		}
		if !utf8.Valid(line) {
			t.Fatalf("invalid UTF-8 after reassembly: %q", truncate(string(line)))
		}
		sawSeparator = sawSeparator || bytes.Contains(line, []byte("\u2028"))
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%v: %q", err, truncate(string(line)))
		}
		if r.event() == "text_delta" {
			text.WriteString(r.str("assistantMessageEvent", "delta"))
		}
		if r.typ() == "agent_settled" {
			break
		}
	}
	if !sawSeparator || !strings.Contains(text.String(), "\u2029") || !strings.Contains(text.String(), "日本語 😀") {
		t.Errorf("raw separator seen: %v; text %q", sawSeparator, text.String())
	}

	const size = 9 << 20
	f.sendCommand("prompt", "message", "[[huge:9MiB]]")
	if line := f.rawLine(); bytes.HasSuffix(line, []byte("\r\n")) {
		t.Errorf("CRLF outlived its run: %q", line)
	}
	recs := f.untilType("agent_settled")
	longest := 0
	for _, r := range recs {
		if r.event() == "text_delta" {
			longest = max(longest, len(r.str("assistantMessageEvent", "delta")))
		}
	}
	if longest != size {
		t.Errorf("largest delta %d bytes, want %d", longest, size)
	}
}

func TestStartupMisbehaviour(t *testing.T) {
	t.Parallel()
	t.Run("exit at once", func(t *testing.T) {
		t.Parallel()
		f := startFake(t, "--fake-exit-at-once=7")
		if code := f.exitCode(); code != 7 || f.stderr.String() == "" {
			t.Errorf("exit code %d, stderr %q", code, f.stderr)
		}
	})
	t.Run("not the protocol", func(t *testing.T) {
		t.Parallel()
		f := startFake(t, "--fake-not-protocol")
		if line := string(f.rawLine()); !strings.HasPrefix(line, "Usage: ") {
			t.Errorf("first line %q", line)
		}
		if code := f.exitCode(); code != 1 {
			t.Errorf("exit code %d", code)
		}
	})
	t.Run("stdin closed", func(t *testing.T) {
		t.Parallel()
		f := startFake(t)
		f.stdin.Close()
		if code := f.exitCode(); code != 0 {
			t.Errorf("exit code %d", code)
		}
	})
	t.Run("no id on the prompt response", func(t *testing.T) {
		t.Parallel()
		f := startFake(t)
		f.sendCommand("prompt", "message", "[[no-id-response]]")
		if r := f.next(); r.typ() != "response" || r["id"] != nil || r["success"] != true {
			t.Errorf("prompt response = %v", r)
		}
	})
}
