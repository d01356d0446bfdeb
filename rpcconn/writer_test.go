package rpcconn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// A reader that never reads: the writer's first big record blocks in the
// pipe, and nothing else waits for it.
func TestWriterNeverHoldsUpTheCaller(t *testing.T) {
	r, wf, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w := newWriter(wf)
	big := []byte(strings.Repeat("x", 400<<10) + "\n")
	first, err := w.enqueue("1", big)
	if err != nil {
		t.Fatal(err)
	}
	second, err := w.enqueue("2", []byte("{\"second\":true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The second has not begun: it can be taken back, the first not.
	if !w.cancel(second) {
		t.Fatal("a record still queued could not be taken back")
	}
	waitFor(t, func() bool { // the first record taken by the writer
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.current == first
	})
	if w.cancel(first) {
		t.Fatal("a record begun was taken back: half a line would corrupt the stream")
	}
	// Bounded: past maxQueued the writer refuses, in words.
	var full error
	for i := 0; full == nil && i < 200; i++ {
		_, full = w.enqueue("n", bytes.Repeat([]byte("y"), 1<<20))
	}
	if !errors.Is(full, ErrWriteQueueFull) {
		t.Fatalf("queueing without end: %v", full)
	}
	third, err := func() (*pendingWrite, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if len(w.queue) == 0 {
			return nil, errors.New("empty queue")
		}
		return w.queue[0], nil
	}()
	if err != nil {
		t.Fatal(err)
	}
	// Closing ends what waits at once, and the blocked write once the pipe
	// closes.
	w.close(ErrClosed)
	select {
	case err := <-third.done:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("a queued record ended with %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a queued record did not end when the writer closed")
	}
	wf.Close()
	select {
	case err := <-first.done:
		if err == nil {
			t.Fatal("the blocked write claims it went out")
		}
	case <-time.After(time.Minute):
		t.Fatal("the blocked write did not end when the pipe closed")
	}
	select {
	case <-w.stopped:
	case <-time.After(time.Minute):
		t.Fatal("the writer goroutine did not end")
	}
	if _, err := w.enqueue("late", []byte("x\n")); err == nil {
		t.Fatal("a closed writer took a record")
	}
}

// Records go out whole and in order.
func TestWriterKeepsOrder(t *testing.T) {
	r, wf, _ := os.Pipe()
	w := newWriter(wf)
	var want strings.Builder
	var last *pendingWrite
	for i := 0; i < 100; i++ {
		rec := strings.Repeat(string(rune('a'+i%26)), 1000+i) + "\n"
		want.WriteString(rec)
		last, _ = w.enqueue("x", []byte(rec))
	}
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	if err := <-last.done; err != nil {
		t.Fatal(err)
	}
	w.close(ErrClosed)
	wf.Close()
	if b := <-got; string(b) != want.String() {
		t.Fatalf("the pipe got %d bytes, not the %d sent in order", len(b), want.Len())
	}
}
