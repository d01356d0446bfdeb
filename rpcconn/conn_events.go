package rpcconn

import "context"

// EventsReady receives a value when events are waiting and is closed after
// the last event (an *Exit) has been queued.
func (c *Conn) EventsReady() <-chan struct{} { return c.events.ready }

// TakeEvents appends every waiting event to buf; more reports whether more
// can come. Events are pointers (*MessageEnd, *ExtensionUIRequest, …); the
// last one is always an *Exit.
func (c *Conn) TakeEvents(buf []Event) (events []Event, more bool) {
	return c.events.take(buf)
}

// NextEvent returns the next event, waiting for it. It is a convenience for
// simple consumers and tests; do not mix it with TakeEvents.
func (c *Conn) NextEvent(ctx context.Context) (Event, error) {
	c.nextMu.Lock()
	defer c.nextMu.Unlock()
	for len(c.nextBuf) == 0 {
		var more bool
		c.nextBuf, more = c.events.take(c.nextBuf)
		if len(c.nextBuf) > 0 {
			break
		}
		if !more {
			return nil, ErrClosed
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.events.ready:
		}
	}
	ev := c.nextBuf[0]
	c.nextBuf[0] = nil
	c.nextBuf = c.nextBuf[1:]
	return ev, nil
}
