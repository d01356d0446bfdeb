package app

import (
	"context"
	"sync"

	"knightcode.ai/desktop/sessionindex"
)

// sharedIndex is the process's one session index, shared by the tabs: each
// tab opening one of its own would have them race over the same file and
// hold its caches several times. The first tab to ask opens it, a tab
// asking meanwhile waits for that open, and the last to give its share back
// closes it. A failed open is not kept: the next tab to ask tries again.
type sharedIndex struct {
	open func() (*sessionindex.Index, error)

	mu    sync.Mutex
	idx   *sessionindex.Index
	users int
	// opening is closed when the open under way ends, well or not.
	opening chan struct{}
	// waiting counts the callers waiting for that open, for tests.
	waiting int
}

// processIndex is the index of the user's cache folder, shared by every
// tab of the process.
var processIndex = newSharedIndex(func() (*sessionindex.Index, error) { return sessionindex.Open("") })

func newSharedIndex(open func() (*sessionindex.Index, error)) *sharedIndex {
	return &sharedIndex{open: open}
}

// acquire returns the index and a share of it, opening it on first use;
// each successful acquire is matched by one release. Giving up on ctx
// takes no share; an open already begun goes on for the next caller.
func (s *sharedIndex) acquire(ctx context.Context) (*sessionindex.Index, error) {
	s.mu.Lock()
	for {
		if s.idx != nil {
			s.users++
			idx := s.idx
			s.mu.Unlock()
			return idx, nil
		}
		if s.opening == nil {
			break
		}
		opening := s.opening
		s.waiting++
		s.mu.Unlock()
		select {
		case <-opening:
		case <-ctx.Done():
			s.mu.Lock()
			s.waiting--
			s.mu.Unlock()
			return nil, ctx.Err()
		}
		s.mu.Lock()
		s.waiting--
	}
	opening := make(chan struct{})
	s.opening = opening
	s.mu.Unlock()

	idx, err := s.open()

	s.mu.Lock()
	defer s.mu.Unlock()
	s.opening = nil
	close(opening)
	if err != nil {
		return nil, err
	}
	s.idx, s.users = idx, 1
	return idx, nil
}

// release gives back a share acquire returned; the last one closes the
// index. It waits for the index's Update under way, if any, to stop.
func (s *sharedIndex) release(idx *sessionindex.Index) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if idx == nil || idx != s.idx || s.users == 0 {
		return
	}
	s.users--
	if s.users == 0 {
		// Closed under mu, so that a tab asking now opens the file again
		// only once this process no longer has it open.
		s.idx.Close()
		s.idx = nil
	}
}

// state is the number of shares out and of callers waiting for an open.
func (s *sharedIndex) state() (users, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.users, s.waiting
}
