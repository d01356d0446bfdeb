package rpcconn

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// writer puts records on the agent's stdin, in the order they were given,
// from a goroutine of its own. An agent that stops reading fills the pipe
// and blocks a write: that must hold up nothing else — not the next
// command's caller, not Close, not the window — so callers only queue.
// What waits is bounded in bytes; a record not yet begun can be taken back
// (its call abandoned), one begun is always finished, since half a line
// would corrupt the next; and whatever never went out fails when the
// connection closes.
type writer struct {
	out io.Writer

	mu     sync.Mutex
	queue  []*pendingWrite
	queued int
	// current is the record being written, out of the queue.
	current *pendingWrite
	closed  error
	wake    chan struct{}
	stopped chan struct{}
}

// pendingWrite is one record on its way.
type pendingWrite struct {
	id  string
	rec []byte
	// done gets the write's result: nil once the whole record is out.
	done chan error
	// begun is set when the writer took it: from then on it goes out
	// whole or the connection ends.
	begun bool
}

// maxQueued bounds the bytes waiting for an agent that does not read: a
// few pasted documents, not an unbounded heap.
const maxQueued = 64 << 20

// ErrWriteQueueFull says the agent has not read what was sent before and
// too much already waits.
var ErrWriteQueueFull = errors.New("the agent is not reading its input: too much is waiting to be written")

func newWriter(out io.Writer) *writer {
	w := &writer{out: out, wake: make(chan struct{}, 1), stopped: make(chan struct{})}
	go w.loop()
	return w
}

// enqueue adds a record; its result arrives on the returned write's done.
func (w *writer) enqueue(id string, rec []byte) (*pendingWrite, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed != nil {
		return nil, w.closed
	}
	if w.queued+len(rec) > maxQueued && len(w.queue) > 0 {
		return nil, fmt.Errorf("%w (%d MB)", ErrWriteQueueFull, w.queued>>20)
	}
	p := &pendingWrite{id: id, rec: rec, done: make(chan error, 1)}
	w.queue = append(w.queue, p)
	w.queued += len(rec)
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return p, nil
}

// cancel takes back a record that has not begun; it reports false for one
// already begun or gone out (it will be, or was, read whole).
func (w *writer) cancel(p *pendingWrite) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, q := range w.queue {
		if q == p {
			w.queue = append(w.queue[:i], w.queue[i+1:]...)
			w.queued -= len(q.rec)
			return true
		}
	}
	return false
}

// next takes the record to write now out of the queue, or nil.
func (w *writer) next() *pendingWrite {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 || w.closed != nil {
		return nil
	}
	p := w.queue[0]
	w.queue = w.queue[1:]
	w.queued -= len(p.rec)
	p.begun = true
	w.current = p
	return p
}

func (w *writer) loop() {
	defer close(w.stopped)
	for {
		p := w.next()
		if p == nil {
			w.mu.Lock()
			closed := w.closed
			w.mu.Unlock()
			if closed != nil {
				return
			}
			<-w.wake
			continue
		}
		_, err := w.out.Write(p.rec)
		w.mu.Lock()
		w.current = nil
		if err != nil && w.closed == nil {
			w.closed = err
		}
		w.mu.Unlock()
		p.done <- err
		if err != nil {
			w.fail(err)
			return
		}
	}
}

// fail ends every record still queued with err.
func (w *writer) fail(err error) {
	w.mu.Lock()
	queue := w.queue
	w.queue, w.queued = nil, 0
	if w.closed == nil {
		w.closed = err
	}
	w.mu.Unlock()
	for _, p := range queue {
		p.done <- err
	}
}

// close stops the writer: records not begun fail with err; a write blocked
// in the pipe ends when the caller closes the pipe. It does not wait.
func (w *writer) close(err error) {
	w.fail(err)
	select {
	case w.wake <- struct{}{}:
	default:
	}
}
