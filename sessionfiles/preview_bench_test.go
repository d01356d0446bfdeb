package sessionfiles_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

// TestPreviewTail: the preview read from a file's end is the one the whole
// transcript gives, on the fixtures and on generated sessions.
func TestPreviewTail(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sessions", "*.jsonl"))
	dir := t.TempDir()
	for seed := range uint64(30) {
		path := filepath.Join(dir, strconv.Itoa(int(seed))+".jsonl")
		sessionfiles.GenSession(t, path, seed+1000, 30+int(seed)*5, sessionfiles.GenOptions{CRLF: seed%2 == 0, Blank: seed%3 == 0, Cut: seed%4 == 0, V1: seed%9 == 8, SortedKeys: seed%5 == 0})
		files = append(files, path)
	}
	for _, path := range files {
		full, ferr := sessionfiles.ReadTranscript(path)
		tail, err := sessionfiles.ReadTranscriptTail(context.Background(), path, model.PreviewTail())
		if (err == nil) != (ferr == nil) {
			t.Fatalf("%s: %v, the full read %v", path, err, ferr)
		}
		if want, got := model.Preview(full), model.Preview(tail); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", path, got, want)
		}
	}
}

// BenchmarkPreviewTail compares the browser's preview of a ~100 MB session
// read whole (as before) and from its end. SESSIONFILES_BENCH_ENTRIES sets
// the number of entries (default 5000, ~100 MB).
func BenchmarkPreviewTail(b *testing.B) {
	entries := 5000
	if n, err := strconv.Atoi(os.Getenv("SESSIONFILES_BENCH_ENTRIES")); err == nil && n > 0 {
		entries = n
	}
	path := filepath.Join(b.TempDir(), "big.jsonl")
	size := sessionfiles.GenSession(b, path, 7, entries, sessionfiles.GenOptions{})
	b.Logf("session of %d entries, %d MB", entries, size>>20)
	want := model.Preview(mustFull(b, path))
	if len(want) == 0 {
		b.Fatal("an empty preview")
	}
	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			if got := model.Preview(mustFull(b, path)); len(got) != len(want) {
				b.Fatal(len(got))
			}
		}
	})
	b.Run("tail", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			msgs, err := sessionfiles.ReadTranscriptTail(context.Background(), path, model.PreviewTail())
			if got := model.Preview(msgs); err != nil || !reflect.DeepEqual(got, want) {
				b.Fatalf("%d messages, %v", len(got), err)
			}
		}
	})
}

func mustFull(b *testing.B, path string) []rpcconn.Message {
	msgs, err := sessionfiles.ReadTranscript(path)
	if err != nil {
		b.Fatal(err)
	}
	return msgs
}
