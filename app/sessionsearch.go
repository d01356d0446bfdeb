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
// browser, through the full-text index in the user's cache folder. The
// index opens on first use and catches up with the session files each
// time the browser opens; the files stay the truth, so a damaged index is
// rebuilt and a missing one built. All of it runs on the window's workers,
// never on the UI goroutine.
type messageSearch struct {
	w *Tab

	mu sync.Mutex
	// opened is closed when idx (or err) is set.
	opened  chan struct{}
	idx     *sessionindex.Index
	err     error
	started bool
}

// catchUp opens the index if needed and brings it up to date with the
// session folders the agent writes to; updated then runs on the UI
// goroutine, so a query typed before the index was ready is asked again.
func (s *messageSearch) catchUp(roots []string, updated func()) {
	s.mu.Lock()
	first := !s.started
	s.started = true
	if first {
		s.opened = make(chan struct{})
	}
	s.mu.Unlock()
	s.w.bg.Go(func(ctx context.Context) {
		if first {
			idx, err := sessionindex.Open("")
			s.mu.Lock()
			s.idx, s.err = idx, err
			s.mu.Unlock()
			close(s.opened)
		}
		idx, err := s.index(ctx)
		if err != nil {
			return
		}
		// A failed update leaves what was indexed before searchable.
		idx.Update(ctx, roots)
		if ctx.Err() == nil {
			s.w.do(updated)
		}
	})
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
	return s.idx, s.err
}

// search looks for query and hands the sessions found to answer on the UI
// goroutine; the browser drops answers to queries it no longer shows.
func (s *messageSearch) search(query string, answer func(query string, hits []model.MessageHit)) {
	s.w.bg.Go(func(ctx context.Context) {
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
		s.w.do(func() { answer(query, hits) })
	})
}

// close closes the index once the workers have stopped.
func (s *messageSearch) close() {
	s.mu.Lock()
	idx := s.idx
	s.mu.Unlock()
	if idx != nil {
		idx.Close()
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
