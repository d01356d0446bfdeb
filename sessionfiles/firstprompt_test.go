package sessionfiles

import (
	"fmt"
	"path/filepath"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

// TestFirstPrompt: the text of the file's first user message, in generated
// files of every shape the tail reader is tested on. (After a branch or a
// compaction it need not be the transcript's first prompt: the window
// takes the agent's word for that once it answers.)
func TestFirstPrompt(t *testing.T) {
	dir := t.TempDir()
	for seed := range uint64(20) {
		opt := GenOptions{CRLF: seed%3 == 1, Blank: seed%4 == 2, Cut: seed%5 == 3, SortedKeys: seed%2 == 1}
		path := filepath.Join(dir, fmt.Sprint(seed, ".jsonl"))
		GenSession(t, path, seed, 20+int(seed)*4, opt)
		entries, err := readSessionEntries(path)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		for _, e := range entries {
			if e.Type == "message" && e.Message != nil && e.Message.Role == rpcconn.RoleUser {
				want = e.Message.Content.Text()
				break
			}
		}
		got, err := FirstPrompt(path)
		if err != nil || got != want {
			t.Fatalf("seed %d: %q, %v; want %q", seed, got, err, want)
		}
	}
	if _, err := FirstPrompt(filepath.Join(dir, "none.jsonl")); err == nil {
		t.Fatal("no error for a missing file")
	}
}
