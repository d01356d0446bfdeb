package llmserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

// requestLog keeps every completion request in arrival order and wakes
// waiters whenever something changes.
type requestLog struct {
	mu       sync.Mutex
	requests []Request
	// changed is closed and replaced on every change: a broadcast that
	// needs no bookkeeping of who is waiting.
	changed chan struct{}
	file    *os.File
}

func (l *requestLog) init() { l.changed = make(chan struct{}) }

func (l *requestLog) add(req *Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	req.Seq = len(l.requests) + 1
	req.Time = time.Now()
	l.requests = append(l.requests, *req)
	if l.file != nil {
		if b, err := json.Marshal(req); err == nil {
			// A failed write only loses a debugging aid; the reply matters more.
			_, _ = l.file.Write(append(b, '\n'))
		}
	}
	l.notifyLocked()
}

func (l *requestLog) notify() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notifyLocked()
}

func (l *requestLog) notifyLocked() {
	close(l.changed)
	l.changed = make(chan struct{})
}

func (l *requestLog) snapshot() ([]Request, chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Request(nil), l.requests...), l.changed
}

func (l *requestLog) setFile(f *os.File) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var err error
	if l.file != nil {
		err = l.file.Close()
	}
	l.file = f
	return err
}

func (l *requestLog) close() error { return l.setFile(nil) }

// Requests returns the completion requests received so far, oldest first.
// GET /v1/models is not logged.
func (s *Server) Requests() []Request {
	reqs, _ := s.log.snapshot()
	return reqs
}

// WaitRequests waits until at least n completion requests have arrived and
// returns all of them. A request is logged before its reply starts.
func (s *Server) WaitRequests(ctx context.Context, n int) ([]Request, error) {
	for {
		reqs, changed := s.log.snapshot()
		if len(reqs) >= n {
			return reqs, nil
		}
		select {
		case <-ctx.Done():
			return reqs, fmt.Errorf("llmserver: got %d of %d requests: %w", len(reqs), n, ctx.Err())
		case <-changed:
		}
	}
}

// WaitIdle waits until no completion request is being answered, for example
// after the agent aborted a stream.
func (s *Server) WaitIdle(ctx context.Context) error {
	for {
		_, changed := s.log.snapshot()
		if s.Active() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("llmserver: %d requests still active: %w", s.Active(), ctx.Err())
		case <-changed:
		}
	}
}

// SetLogFile appends every later request to path as one JSON line, so a test
// in another process (or a person) can read what the agent sent. An empty
// path stops logging to a file.
func (s *Server) SetLogFile(path string) error {
	if path == "" {
		return s.log.setFile(nil)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("llmserver: open request log: %w", err)
	}
	return s.log.setFile(f)
}
