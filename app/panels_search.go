package app

import (
	"context"
	"os"
	"sync"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
	"knightcode.ai/desktop/sessionindex"
)

// messageSearch finds sessions by what was said in them, for the session
// browser, through the full-text index in the user's cache folder, which
// the tabs share (processIndex). The tab takes its share on first use and
// the index catches up with the session files each time the browser opens;
// the files stay the truth, so a damaged index is rebuilt and a missing one
// built. All of it runs on the window's workers, never on the UI goroutine.
type messageSearch struct {
	host *tabHost
	// shared is where the share comes from; processIndex when nil.
	shared *sharedIndex

	mu sync.Mutex
	// opened is closed when idx (or err) is set.
	opened chan struct{}
	idx    *sessionindex.Index
	err    error
	// closed is set once close gave the share back.
	closed bool
}

// catchUp takes the tab's share of the index if it has none (again after
// a failed open) and brings the index up to date with the session folders
// the agent writes to; updated then runs on the UI goroutine, so a query
// typed before the index was ready is asked again.
func (s *messageSearch) catchUp(roots []string, updated func()) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	first := s.opened == nil || s.openFailed()
	var opened chan struct{}
	if first {
		opened = make(chan struct{})
		s.opened, s.idx, s.err = opened, nil, nil
	}
	s.mu.Unlock()
	s.host.bg.Go(func(ctx context.Context) {
		if first {
			idx, err := s.source().acquire(ctx)
			s.mu.Lock()
			s.idx, s.err = idx, err
			s.mu.Unlock()
			close(opened)
		}
		idx, err := s.index(ctx)
		if err != nil {
			return
		}
		// A failed update leaves what was indexed before searchable.
		idx.Update(ctx, roots)
		if ctx.Err() == nil {
			s.host.do(updated)
		}
	})
}

// openFailed: the last open ended without an index. Called with mu held.
func (s *messageSearch) openFailed() bool {
	select {
	case <-s.opened:
		return s.idx == nil
	default:
		return false
	}
}

func (s *messageSearch) source() *sharedIndex {
	if s.shared != nil {
		return s.shared
	}
	return processIndex
}

// index waits for the index to be open.
func (s *messageSearch) index(ctx context.Context) (*sessionindex.Index, error) {
	s.mu.Lock()
	opened := s.opened
	s.mu.Unlock()
	if opened == nil {
		return nil, os.ErrNotExist
	}
	select {
	case <-opened:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idx == nil && s.err == nil {
		return nil, sessionindex.ErrClosed
	}
	return s.idx, s.err
}

// search looks for query and hands the sessions found to answer on the UI
// goroutine; the browser drops answers to queries it no longer shows.
func (s *messageSearch) search(query string, answer func(query string, hits []model.MessageHit)) {
	s.host.bg.Go(func(ctx context.Context) {
		idx, err := s.index(ctx)
		if err != nil {
			return
		}
		found, err := idx.Search(ctx, query, 50)
		if err != nil {
			return
		}
		hits := make([]model.MessageHit, 0, len(found))
		for _, h := range found {
			hit := model.MessageHit{Path: h.Path, Who: hitWho(h.Kind, h.Field), Snippet: h.Snippet, When: h.Time}
			for _, m := range h.Matches {
				hit.Matches = append(hit.Matches, [2]int{m.Start, m.End})
			}
			hits = append(hits, hit)
		}
		s.host.do(func() { answer(query, hits) })
	})
}

// close gives the tab's share of the index back, once, after the workers
// have stopped (the tab's close and quit call it); the last tab's closes it.
func (s *messageSearch) close() {
	s.mu.Lock()
	idx := s.idx
	s.idx, s.err, s.closed = nil, sessionindex.ErrClosed, true
	s.mu.Unlock()
	if idx != nil {
		s.source().release(idx)
	}
}

// hitWho says who wrote what matched.
func hitWho(kind, field string) string {
	switch {
	case field == "tool" || kind == sessionindex.KindToolResult || kind == sessionindex.KindBash:
		return "tool"
	case kind == sessionindex.KindUser:
		return "you"
	case field == "thinking":
		return "agent, thinking"
	}
	return "agent"
}

// sessionRootsOf are the folders the agent keeps sessions in.
func sessionRootsOf(agentArgs []string) []string {
	home, _ := os.UserHomeDir()
	return sessionfiles.Roots(agentArgs, home)
}
