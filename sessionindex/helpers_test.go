package sessionindex

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Session lines in pi's format, for the tests.

var testTime = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func jsonLine(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func headerLine(id, cwd string) string {
	return jsonLine(map[string]any{"type": "session", "version": 3, "id": id, "timestamp": testTime.Format(time.RFC3339Nano), "cwd": cwd})
}

// msgLine is a message entry; i sets its id ("e<i>") and its timestamp
// (testTime plus i minutes).
func msgLine(i int, role, text string) string {
	ts := testTime.Add(time.Duration(i) * time.Minute)
	m := map[string]any{"role": role, "timestamp": ts.UnixMilli()}
	switch role {
	case "user":
		m["content"] = []map[string]any{{"type": "text", "text": text}}
	case "assistant":
		m["content"] = []map[string]any{{"type": "text", "text": text}}
	case "toolResult":
		m["toolName"] = "bash"
		m["content"] = []map[string]any{{"type": "text", "text": text}}
	}
	return jsonLine(map[string]any{"type": "message", "id": fmt.Sprintf("e%d", i), "parentId": nil,
		"timestamp": ts.Format(time.RFC3339Nano), "message": m})
}

func thinkingLine(i int, thinking, text string) string {
	ts := testTime.Add(time.Duration(i) * time.Minute)
	return jsonLine(map[string]any{"type": "message", "id": fmt.Sprintf("e%d", i), "parentId": nil,
		"timestamp": ts.Format(time.RFC3339Nano), "message": map[string]any{"role": "assistant",
			"content": []map[string]any{{"type": "thinking", "thinking": thinking}, {"type": "text", "text": text}}}})
}

// writeSession writes lines, each ended by LF, to root/--proj--/name.
func writeSession(t testing.TB, root, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(root, "--proj--", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	data := strings.Join(lines, "\n") + "\n"
	if len(lines) == 0 {
		data = ""
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func appendLines(t testing.TB, path string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
}

// bumpTime moves a file's modification time forward, so that a rewrite of
// the same size within the file system's time granularity is still seen.
func bumpTime(t testing.TB, path string, by time.Duration) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime().Add(by), st.ModTime().Add(by)); err != nil {
		t.Fatal(err)
	}
}

func openTest(t testing.TB) *Index {
	t.Helper()
	x, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func update(t testing.TB, x *Index, root string) UpdateStats {
	t.Helper()
	st, err := x.Update(context.Background(), []string{root})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	return st
}

func search(t testing.TB, x *Index, q string) []Hit {
	t.Helper()
	hits, err := x.Search(context.Background(), q, 0)
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return hits
}

// matched is the text of each match in a hit's snippet.
func matched(h Hit) []string {
	var out []string
	for _, r := range h.Matches {
		out = append(out, h.Snippet[r.Start:r.End])
	}
	return out
}

func sessionNames(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, filepath.Base(h.Path))
	}
	return out
}
