package sessionfiles

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

// repliesIn counts the replies in what ReadTranscript makes of path.
func repliesIn(t *testing.T, path string) int {
	t.Helper()
	msgs, err := ReadTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		if m.Role == rpcconn.RoleAssistant {
			n++
		}
	}
	return n
}

// linearSession writes a session of turns prompts and replies, each reply
// padded to pad bytes (past the 64 KiB head when large), and returns its
// path and lines.
func linearSession(t *testing.T, turns, pad int) (string, []string) {
	t.Helper()
	lines := []string{`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-02T09:00:00.000Z","cwd":"/w"}`,
		`{"type":"model_change","id":"e0","parentId":null,"timestamp":"2026-11-02T09:00:00.015Z","provider":"p","modelId":"m"}`}
	prev := "e0"
	for i := range turns {
		u, a := fmt.Sprintf("u%d", i), fmt.Sprintf("a%d", i)
		lines = append(lines,
			fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-11-02T09:01:00.000Z","message":{"role":"user","content":"prompt %d","timestamp":1}}`, u, prev, i),
			fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-11-02T09:01:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"reply %d %s"}],"timestamp":2}}`, a, u, i, strings.Repeat("x", pad)))
		prev = a
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeLines(t, path, lines, "\n")
	return path, lines
}

func writeLines(t *testing.T, path string, lines []string, end string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+end), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A linear session's replies are counted from the lines' heads, long lines
// too, as many as its transcript has.
func TestCountRepliesLinear(t *testing.T) {
	for _, pad := range []int{0, 100 << 10} {
		path, _ := linearSession(t, 30, pad)
		n, linear, err := CountReplies(context.Background(), path)
		if err != nil || !linear || n != 30 || n != repliesIn(t, path) {
			t.Fatalf("pad %d: %d replies, linear %v, %v; the transcript has %d", pad, n, linear, err, repliesIn(t, path))
		}
	}
	pi := filepath.Join("testdata", "sessions", "pi-0.73.1.jsonl")
	n, linear, err := CountReplies(context.Background(), pi)
	if err != nil || !linear || n != repliesIn(t, pi) || n == 0 {
		t.Fatalf("pi's file: %d replies, linear %v, %v; the transcript has %d", n, linear, err, repliesIn(t, pi))
	}
}

// Where the count would not be the transcript's, CountReplies says so.
func TestCountRepliesNotLinear(t *testing.T) {
	path, lines := linearSession(t, 5, 0)
	cases := map[string][]string{
		"a branch": append(append([]string(nil), lines...),
			`{"type":"message","id":"b1","parentId":"u2","timestamp":"2026-11-02T09:02:00.000Z","message":{"role":"assistant","content":"other","timestamp":3}}`),
		"a compaction": append(append([]string(nil), lines...),
			`{"type":"compaction","id":"c1","parentId":"a4","timestamp":"2026-11-02T09:02:00.000Z","summary":"s","firstKeptEntryId":"u3"}`),
		"no ids": {lines[0], `{"type":"message","timestamp":"2026-11-02T09:01:00.000Z","message":{"role":"user","content":"hi"}}`},
		"the role past the head": append(append([]string(nil), lines...),
			`{"type":"message","id":"z1","parentId":"a4","timestamp":"2026-11-02T09:02:00.000Z","message":{"content":"`+strings.Repeat("x", 70<<10)+`","role":"assistant"}}`),
	}
	for name, ls := range cases {
		writeLines(t, path, ls, "\n")
		if n, linear, err := CountReplies(context.Background(), path); err != nil || linear {
			t.Errorf("%s: %d replies, linear %v, %v", name, n, linear, err)
		}
	}
	for _, name := range []string{"branches.jsonl", "legacy-v1.jsonl"} {
		if n, linear, err := CountReplies(context.Background(), filepath.Join("testdata", "sessions", name)); err != nil || linear {
			t.Errorf("%s: %d replies, linear %v, %v", name, n, linear, err)
		}
	}
}

// A reply the agent is still writing (no line end yet) is not counted.
func TestCountRepliesHalfWrittenLast(t *testing.T) {
	path, lines := linearSession(t, 4, 0)
	last := lines[len(lines)-1]
	writeLines(t, path, append(lines[:len(lines)-1], last[:len(last)/2]), "")
	if n, linear, err := CountReplies(context.Background(), path); err != nil || !linear || n != 3 {
		t.Fatalf("%d replies, linear %v, %v; want 3", n, linear, err)
	}
}

func TestCountRepliesCancelled(t *testing.T) {
	path, _ := linearSession(t, 4, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := CountReplies(ctx, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled count: %v", err)
	}
}
