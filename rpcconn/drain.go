package rpcconn

import (
	"io"
	"os"
	"sync/atomic"
	"time"
)

// drainGrace bounds how long the agent's output is read after it exited. A
// tool the agent started may hold its stdout or stderr open for hours; what
// the agent itself wrote is in the pipe by the time it exits, so the pipe is
// read until it is empty, not until EOF. A var so tests can make it huge.
var drainGrace = 2 * time.Second

// drainPoll is how often an exited agent's pipes are looked at.
const drainPoll = 5 * time.Millisecond

// quietSpell is, where a pipe's pending bytes cannot be counted, how long
// the reader must have waited in Read with nothing arriving.
const quietSpell = 200 * time.Millisecond

// watchedReader lets the drain see, on systems that cannot count a pipe's
// pending bytes, whether its reader waits for data.
type watchedReader struct {
	f        *os.File
	inRead   atomic.Bool
	lastData atomic.Int64 // UnixNano of the last Read that returned data
}

func newWatchedReader(f *os.File) *watchedReader {
	w := &watchedReader{f: f}
	w.lastData.Store(time.Now().UnixNano())
	return w
}

func (w *watchedReader) Read(p []byte) (int, error) {
	w.inRead.Store(true)
	n, err := w.f.Read(p)
	w.inRead.Store(false)
	if n > 0 {
		w.lastData.Store(time.Now().UnixNano())
	}
	return n, err
}

// empty says everything written to the pipe so far has been read.
func (w *watchedReader) empty() bool {
	if pipeEmptyKnown {
		return pipeEmpty(w.f)
	}
	return w.inRead.Load() && time.Since(time.Unix(0, w.lastData.Load())) >= quietSpell
}

// drain waits, for a pipe whose writer exited, until its reader has taken
// everything (or got EOF, closing done), then makes the reader stop and
// waits for it. A Read that already took bytes from the pipe still returns
// them, so stopping by a read deadline loses nothing of what was read;
// what a tool writes after the pipe was empty is not the agent's.
func (w *watchedReader) drain(done <-chan struct{}) {
	giveUp := time.NewTimer(drainGrace)
	defer giveUp.Stop()
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-giveUp.C:
			w.stop()
			<-done
			return
		case <-tick.C:
			if w.empty() {
				w.stop()
				<-done
				return
			}
		}
	}
}

// stop ends the reader's wait: a read deadline in the past where the pipe
// supports one, else closing it.
func (w *watchedReader) stop() {
	if w.f.SetReadDeadline(time.Unix(1, 0)) != nil {
		w.f.Close()
	}
}

// copyStderr keeps what the agent writes to stderr in tail until the pipe
// ends or is stopped, then closes done.
func copyStderr(tail io.Writer, r io.Reader, done chan<- struct{}) {
	defer close(done)
	_, _ = io.Copy(tail, r)
}
