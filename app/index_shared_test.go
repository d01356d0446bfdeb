package app

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"knightcode.ai/desktop/app/uiloop"
	"knightcode.ai/desktop/sessionindex"
)

// waitFor polls cond until it holds, failing the test after a bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// searchTab is a tab as far as its message search goes: workers and a
// window whose loop has ended, so nothing is handed to the UI.
func searchTab(shared *sharedIndex) *Tab {
	win := &Window{}
	win.loopEnded.Store(true)
	host := &tabHost{shell: win, bg: uiloop.NewWorkers()}
	w := &Tab{tabHost: host, panels: &sessionPanels{tabHost: host}}
	w.panels.messages = messageSearch{host: host, shared: shared}
	return w
}

// TestSharedIndexTabs: eight tabs opening the browser at once share one
// index, opened once; a tab's close gives its share back once; the last
// closes the index, and the next tab opens it again.
func TestSharedIndexTabs(t *testing.T) {
	dir := t.TempDir()
	var opens atomic.Int32
	var shared *sharedIndex
	shared = newSharedIndex(func() (*sessionindex.Index, error) {
		if opens.Add(1) == 1 {
			// The first open ends only once the other tabs wait for it
			// (or after a bound: the count of opens then fails the test).
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				if _, waiting := shared.state(); waiting == 7 {
					break
				}
			}
		}
		return sessionindex.Open(dir)
	})
	tabs := make([]*Tab, 8)
	for i := range tabs {
		tabs[i] = searchTab(shared)
		tabs[i].panels.messages.catchUp(nil, func() {})
	}
	waitFor(t, "eight shares", func() bool { users, _ := shared.state(); return users == 8 })
	if n := opens.Load(); n != 1 {
		t.Fatalf("opened %d times", n)
	}
	var idx *sessionindex.Index
	for i, w := range tabs {
		got, err := w.panels.messages.index(context.Background())
		if err != nil || idx != nil && got != idx {
			t.Fatalf("tab %d: %p, %v; tab 0 has %p", i, got, err, idx)
		}
		idx = got
	}

	for i, w := range tabs[:7] {
		w.bg.Stop() // as shutdownAgent does
		w.panels.messages.close()
		w.panels.messages.close() // a second close gives nothing back
		if users, _ := shared.state(); users != 7-i {
			t.Fatalf("after closing tab %d: %d shares", i, users)
		}
	}
	if _, err := idx.Search(context.Background(), "anything", 0); err != nil {
		t.Fatalf("the last tab's index: %v", err)
	}
	tabs[7].bg.Stop()
	tabs[7].panels.messages.close()
	if _, err := idx.Search(context.Background(), "anything", 0); !errors.Is(err, sessionindex.ErrClosed) {
		t.Fatalf("after the last tab: %v, want it closed", err)
	}

	next := searchTab(shared)
	next.panels.messages.catchUp(nil, func() {})
	waitFor(t, "a share for the next tab", func() bool { users, _ := shared.state(); return users == 1 })
	again, err := next.panels.messages.index(context.Background())
	if err != nil || again == idx || opens.Load() != 2 {
		t.Fatalf("reopened: %p (was %p), %v, %d opens", again, idx, err, opens.Load())
	}
	if _, err := again.Search(context.Background(), "anything", 0); err != nil {
		t.Fatal(err)
	}
	next.bg.Stop()
	next.panels.messages.close()
	if users, _ := shared.state(); users != 0 {
		t.Fatalf("%d shares left", users)
	}
}

// TestSharedIndexFailedOpen: a failed open is not kept; the next acquire
// tries again.
func TestSharedIndexFailedOpen(t *testing.T) {
	dir := t.TempDir()
	var opens atomic.Int32
	shared := newSharedIndex(func() (*sessionindex.Index, error) {
		if opens.Add(1) == 1 {
			return nil, errors.New("no index today")
		}
		return sessionindex.Open(dir)
	})
	if _, err := shared.acquire(context.Background()); err == nil {
		t.Fatal("the first open should fail")
	}
	idx, err := shared.acquire(context.Background())
	if err != nil || opens.Load() != 2 {
		t.Fatalf("second: %v after %d opens", err, opens.Load())
	}
	shared.release(idx)
	shared.release(idx) // more releases than shares change nothing
	if users, _ := shared.state(); users != 0 {
		t.Fatalf("%d shares", users)
	}

	// A tab whose open failed tries again the next time the browser opens.
	opens.Store(0)
	w := searchTab(shared)
	w.panels.messages.catchUp(nil, func() {})
	waitFor(t, "the failed open", func() bool {
		w.panels.messages.mu.Lock()
		defer w.panels.messages.mu.Unlock()
		return w.panels.messages.err != nil
	})
	w.panels.messages.catchUp(nil, func() {})
	waitFor(t, "a share after the retry", func() bool { users, _ := shared.state(); return users == 1 })
	w.bg.Stop()
	w.panels.messages.close()
	if users, _ := shared.state(); users != 0 {
		t.Fatalf("%d shares after close", users)
	}
}
