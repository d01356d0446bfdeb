package sessionfiles

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

// sameTail fails unless the tail read of path matches what the full read
// gives for t.
func sameTail(t *testing.T, path string, tail Tail) {
	t.Helper()
	full, ferr := ReadTranscript(path)
	got, err := ReadTranscriptTail(context.Background(), path, tail)
	if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
		t.Fatalf("%s: error %v, the full read's %v", filepath.Base(path), err, ferr)
	}
	want := tail.pick(full)
	if tail.Messages == 0 && tail.Roles == nil {
		want = full
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %+v:\n got %d: %s\nwant %d: %s", filepath.Base(path), tail, len(got), brief(got), len(want), brief(want))
	}
}

func brief(msgs []rpcconn.Message) string {
	var parts []string
	for _, m := range msgs {
		text := m.Content.Text() + m.Summary
		parts = append(parts, fmt.Sprintf("%s:%.20q", m.Role, text))
	}
	return strings.Join(parts, " ")
}

var tailCases = []Tail{
	{},
	{Messages: 1},
	{Messages: 6, Roles: []string{rpcconn.RoleUser, rpcconn.RoleAssistant}},
	{Messages: 3, Roles: []string{rpcconn.RoleUser}, Counts: func(m rpcconn.Message) bool { return m.Content.Text() != "" }},
}

func TestTailFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sessions", "*.jsonl"))
	if len(files) < 5 {
		t.Fatalf("%d fixtures", len(files))
	}
	for _, path := range files {
		for _, tail := range tailCases {
			sameTail(t, path, tail)
		}
	}
}

func TestTailGenerated(t *testing.T) {
	dir := t.TempDir()
	for seed := range uint64(40) {
		opt := GenOptions{CRLF: seed%3 == 1, Blank: seed%4 == 2, Cut: seed%5 == 3, V1: seed%7 == 6, SortedKeys: seed%2 == 1}
		path := filepath.Join(dir, fmt.Sprint(seed, ".jsonl"))
		GenSession(t, path, seed, 20+int(seed)*4, opt)
		for _, tail := range tailCases {
			sameTail(t, path, tail)
		}
	}
}

// TestTailReadsTheEnd: a large session's preview reads about its end, and
// allocates about that much.
func TestTailReadsTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	size := bigLinear(t, path, 300)
	tail := Tail{Messages: 6, Roles: []string{rpcconn.RoleUser, rpcconn.RoleAssistant}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msgs, read, err := readTranscriptTail(context.Background(), path, tail)
	runtime.ReadMemStats(&after)
	if err != nil || len(msgs) != 6 {
		t.Fatalf("%d messages, %v", len(msgs), err)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("file %d bytes: read %d, allocated %d", size, read, allocated)
	if read > 1<<20 || allocated > 2<<20 {
		t.Fatalf("read %d bytes and allocated %d of a %d-byte file", read, allocated, size)
	}
}

// bigLinear writes a session of n turns, each a prompt, a reply and a tool
// result of 20 KB to 150 KB, and returns its size.
func bigLinear(t testing.TB, path string, n int) int64 {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, `{"type":"session","version":3,"id":"big","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}`)
	parent := "null"
	id := 0
	line := func(format string, args ...any) {
		id++
		fmt.Fprintf(f, `{"type":"message","id":"%d","parentId":%s,"timestamp":"2025-01-01T00:00:01.000Z","message":`+format+"}\n", append([]any{id, parent}, args...)...)
		parent = fmt.Sprintf(`"%d"`, id)
	}
	for i := range n {
		line(`{"role":"user","content":[{"type":"text","text":"prompt %d"}]}`, i)
		line(`{"role":"assistant","content":[{"type":"text","text":"reply %d %s"}],"model":"m"}`, i, strings.Repeat("word ", 100))
		line(`{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[{"type":"text","text":"%s"}]}`, strings.Repeat("output\\n", (20<<10+(i%7)*(20<<10))/8))
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func TestTailCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	bigLinear(t, path, 50)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	msgs, read, err := readTranscriptTail(ctx, path, Tail{})
	if !errors.Is(err, context.Canceled) || msgs != nil || read != 0 {
		t.Fatalf("%d messages, %d bytes read, %v", len(msgs), read, err)
	}
}
