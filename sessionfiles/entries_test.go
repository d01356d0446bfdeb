package sessionfiles

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLineReaderOffsets(t *testing.T) {
	long := `{"type":"message","message":{"role":"toolResult","content":"` + strings.Repeat("x", lineHead*2) + `"}}`
	in := "one\r\n\n  \ntwo\n" + long + "\n" + long + "\nlast"
	const start = 1000
	lr := NewLineReader(strings.NewReader(in), start)
	next := func(want string, wantWhole bool, wantLine int) {
		t.Helper()
		line, whole, err := lr.Next()
		if err != nil || whole != wantWhole || !strings.HasPrefix(want, string(line)) {
			t.Fatalf("Next = %.20q, %v, %v; want %.20q, %v", line, whole, err, want, wantWhole)
		}
		if lr.Line() != wantLine {
			t.Fatalf("Line = %d, want %d", lr.Line(), wantLine)
		}
	}
	end := func(want int) {
		t.Helper()
		if got := lr.End(); got != int64(start+want) {
			t.Fatalf("End = %d, want %d", got, start+want)
		}
	}
	next("one", true, 1)
	end(len("one\r\n"))
	next("two", true, 4)
	end(len("one\r\n\n  \ntwo\n"))
	next(long, false, 5)
	if typ, role := TypeRole([]byte(long[:100])); typ != "message" || role != "toolResult" {
		t.Fatalf("TypeRole = %q, %q", typ, role)
	}
	if rest, err := lr.Rest(); err != nil || string(rest) != long {
		t.Fatalf("Rest: %d bytes, %v", len(rest), err)
	}
	end(len("one\r\n\n  \ntwo\n") + len(long) + 1)
	next(long, false, 6)
	if err := lr.Skip(); err != nil || !lr.Terminated() {
		t.Fatalf("Skip: %v, terminated %v", err, lr.Terminated())
	}
	end(len(in) - len("last"))
	next("last", true, 7)
	if lr.Terminated() {
		t.Fatal("a last line without LF is not terminated")
	}
	end(len(in))
	if _, _, err := lr.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v", err)
	}
}

func TestFiles(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"flat.jsonl", "--a--/one.jsonl", "--b--/two.jsonl", "--b--/notes.txt", "x/y/deep.jsonl"} {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Files([]string{root, filepath.Join(root, "missing")}, "")
	for i := range got {
		got[i], _ = filepath.Rel(root, got[i])
	}
	slices.Sort(got)
	want := []string{"--a--/one.jsonl", "--b--/two.jsonl", "flat.jsonl"}
	if !slices.Equal(got, want) {
		t.Fatalf("Files = %q, want %q", got, want)
	}
}
