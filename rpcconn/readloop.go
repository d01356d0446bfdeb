package rpcconn

import "time"

// readLoop is the one goroutine that reads the agent's stdout: it splits
// records (LF only, no length cap) and routes each, and never waits for a
// consumer.
func (c *Conn) readLoop() {
	defer close(c.readDone)
	lines := NewLineReader(c.stdout)
	for {
		line, err := lines.Next()
		if err != nil {
			return
		}
		if c.handleLine(line, time.Now()) {
			lines.Keep()
		}
	}
}

// keepDataSize is the size from which a response's data is handed out in
// the reader's buffer rather than copied: handing the buffer over costs the
// reader a fresh one of initialLineBuffer bytes.
const keepDataSize = initialLineBuffer

// handleLine routes one record read at received. It reports whether it kept
// line (a big response's data), which the reader must then not reuse.
func (c *Conn) handleLine(line []byte, received time.Time) (kept bool) {
	resp, ev, err := decodeRecord(line)
	if err != nil {
		c.mu.Lock()
		if !c.sawRecord && len(c.preamble) < 5 {
			if len(c.preamble) == 0 {
				close(c.preambleSeen)
			}
			c.preamble = append(c.preamble, excerpt(line))
		}
		c.mu.Unlock()
		c.events.put(&ProtocolError{Line: excerpt(line), Err: err})
		return false
	}
	c.mu.Lock()
	c.sawRecord = true
	c.mu.Unlock()
	if resp != nil {
		resp.Received = received
		if kept = len(resp.Data) >= keepDataSize; !kept {
			resp.copyData()
		}
		c.route(resp)
		return kept
	}
	switch e := ev.(type) {
	case *AgentSettled:
		c.caps.sawSettled()
	case *BashExecutionUpdate:
		c.forwardBash(e)
	}
	c.events.put(ev)
	return false
}
