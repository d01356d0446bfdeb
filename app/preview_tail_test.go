package app

import (
	"os"
	"path/filepath"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// TestWindowPreviewCancelled: selecting another session before the first
// one's preview came shows only the second; closing the browser shows
// nothing of the read under way.
func TestWindowPreviewCancelled(t *testing.T) {
	work := t.TempDir()
	first := testsupport.PiFixture(t, t.TempDir(), work, 0)
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(t.TempDir(), "second.jsonl")
	if err := os.WriteFile(second, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w, _ := openTestWindowIn(t, work)
	shown := make(chan string, 4)
	show := func(path string, msgs []model.PreviewMessage, err error) {
		if err != nil || len(msgs) == 0 {
			t.Errorf("preview of %s: %d messages, %v", path, len(msgs), err)
		}
		shown <- path
	}
	reads := &previewReads{host: w.tabHost}
	onUI(func() {
		// Both on the UI goroutine at once: the first's answer cannot
		// come in between.
		reads.read(first, show)
		reads.read(second, show)
	})
	if got := <-shown; got != second {
		t.Fatalf("shown %s, want only %s", got, second)
	}
	onUI(func() {
		reads.read(first, show)
		reads.stop() // the browser closes
	})
	// The stopped read's answer, whenever its worker ends, is dropped on
	// the UI goroutine: only the next read's shows.
	onUI(func() { reads.read(second, show) })
	if got := <-shown; got != second {
		t.Fatalf("shown %s after the browser closed", got)
	}
	onUI(func() {})
	select {
	case got := <-shown:
		t.Fatalf("shown %s as well", got)
	default:
	}
}
