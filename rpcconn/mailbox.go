package rpcconn

import "sync"

// mailbox is an unbounded FIFO between one goroutine that must never block
// (the stdout reader) and a consumer that takes everything waiting at once.
// Taking batches is what lets a UI coalesce a burst of events into one frame.
type mailbox[T any] struct {
	mu     sync.Mutex
	items  []T
	closed bool
	// ready holds one token while items are waiting; it is closed once the
	// mailbox is closed.
	ready chan struct{}
}

func newMailbox[T any]() *mailbox[T] {
	return &mailbox[T]{ready: make(chan struct{}, 1)}
}

// put appends v; it never blocks. Items put after close are dropped.
func (m *mailbox[T]) put(v T) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.putLocked(v)
}

func (m *mailbox[T]) putLocked(v T) {
	if m.closed {
		return
	}
	m.items = append(m.items, v)
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

// close marks the end of the stream; items already put can still be taken.
func (m *mailbox[T]) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closeLocked()
}

// closeWith puts the last item and closes in one step, so a consumer that
// takes the last item also learns that nothing follows it.
func (m *mailbox[T]) closeWith(last T) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.putLocked(last)
	m.closeLocked()
}

func (m *mailbox[T]) closeLocked() {
	if !m.closed {
		m.closed = true
		close(m.ready)
	}
}

// take appends everything waiting to buf and reports whether more may come.
func (m *mailbox[T]) take(buf []T) ([]T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	buf = append(buf, m.items...)
	clear(m.items)
	m.items = m.items[:0]
	return buf, !m.closed
}
