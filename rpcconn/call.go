package rpcconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// call is a command waiting for its response.
type call struct {
	id      string
	command string
	result  chan callResult
	// bash receives bash_execution_update deltas for a bash command.
	bash *mailbox[string]
}

type callResult struct {
	resp *Response
	err  error
}

func (c *call) finish(resp *Response, err error) {
	select {
	case c.result <- callResult{resp, err}:
	default:
	}
}

// encodeCommand writes the record {"id":…,"type":…, params…}. Params must
// marshal to a JSON object (or be nil).
func encodeCommand(id, command string, params any) ([]byte, error) {
	rec := make([]byte, 0, 64)
	rec = append(rec, `{"id":`...)
	rec = appendJSONString(rec, id)
	rec = append(rec, `,"type":`...)
	rec = appendJSONString(rec, command)
	if params != nil {
		body, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", command, err)
		}
		if len(body) < 2 || body[0] != '{' {
			return nil, fmt.Errorf("encoding %s: parameters are not an object", command)
		}
		if len(body) > 2 {
			rec = append(rec, ',')
			rec = append(rec, body[1:len(body)-1]...)
		}
	}
	return append(rec, '}', '\n'), nil
}

// appendJSONString appends s as a JSON string. Go's quoting (\x01, \a) is
// not JSON, and invalid UTF-8 becomes U+FFFD as encoding/json does it.
func appendJSONString(dst []byte, s string) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic("rpcconn: encoding a string cannot fail: " + err.Error())
	}
	return append(dst, b...)
}

// Call sends a command and waits for its response, decoding data into out
// (when out is not nil). It is the untyped form of the typed methods, for
// commands newer than this package.
func (c *Conn) Call(ctx context.Context, command string, params, out any) error {
	resp, err := c.roundTrip(ctx, command, params, nil)
	if err != nil {
		return err
	}
	return decodeData(resp, out)
}

func decodeData(resp *Response, out any) error {
	if out == nil || len(resp.Data) == 0 || string(resp.Data) == "null" {
		return nil
	}
	if err := json.Unmarshal(resp.Data, out); err != nil {
		return fmt.Errorf("%s: bad response data: %w", resp.Command, err)
	}
	return nil
}

func (c *Conn) roundTrip(ctx context.Context, command string, params any, bash *mailbox[string]) (*Response, error) {
	if c.caps.missing(command) {
		return nil, &CommandError{Command: command, Message: "Unknown command: " + command}
	}
	id := "kc-" + strconv.FormatUint(c.nextID.Add(1), 10)
	rec, err := encodeCommand(id, command, params)
	if err != nil {
		return nil, err
	}
	cl := &call{id: id, command: command, result: make(chan callResult, 1), bash: bash}
	c.mu.Lock()
	switch {
	case c.exit != nil:
		exit := c.exit
		c.mu.Unlock()
		return nil, &ExitError{Exit: exit}
	case c.closing:
		c.mu.Unlock()
		return nil, ErrClosed
	}
	c.pending[id] = cl
	c.mu.Unlock()

	pw, err := c.w.enqueue(id, rec)
	if err != nil {
		c.forget(id, false)
		return nil, c.writeFailure(command, err)
	}
	written := pw.done
	for {
		select {
		case r := <-cl.result:
			if r.err != nil {
				return nil, r.err
			}
			if !r.resp.Success {
				return r.resp, &CommandError{Command: command, Message: r.resp.Error}
			}
			return r.resp, nil
		case err := <-written:
			written = nil // out whole: now the answer
			if err != nil {
				c.forget(id, false)
				return nil, c.writeFailure(command, err)
			}
		case <-ctx.Done():
			c.forget(id, true)
			if written == nil || !c.w.cancel(pw) {
				// Out, or begun (it goes out whole): the agent may still
				// act on it.
				return nil, errors.Join(ctx.Err(), ErrMaybeDelivered)
			}
			return nil, ctx.Err()
		}
	}
}

// ErrMaybeDelivered is joined to a cancelled call's error when its command
// had gone out, or begun to, with no answer: it cannot be taken back, and
// the agent may still act on it (one that stopped reading, if it reads
// again). A command cancelled while it still waited to be written never
// reaches the agent, and its error is the context's alone.
var ErrMaybeDelivered = errors.New("the command had gone out and cannot be taken back")

// forget drops a pending call; an abandoned call's late response is then
// expected and silently discarded rather than reported as unmatched.
func (c *Conn) forget(id string, abandoned bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[id]; ok {
		delete(c.pending, id)
		if abandoned {
			c.abandoned[id] = true
		}
	}
}

// writeFailure explains a failed write: usually the agent is gone, and its
// exit says more than EPIPE does.
func (c *Conn) writeFailure(command string, err error) error {
	select {
	case <-c.done:
		return &ExitError{Exit: c.ExitInfo()}
	case <-time.After(time.Second):
	}
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if closing {
		return ErrClosed
	}
	return fmt.Errorf("sending %s: %w", command, err)
}

// route hands a response to the call it answers. Responses without an id
// (parse errors, older agents' unknown commands) go to the only call that
// can have caused them, or are reported.
func (c *Conn) route(resp *Response) {
	c.mu.Lock()
	if resp.ID != "" {
		cl := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		wasAbandoned := c.abandoned[resp.ID]
		delete(c.abandoned, resp.ID)
		c.mu.Unlock()
		if cl != nil && !resp.Success && isUnknownCommand(resp.Error) {
			c.caps.markMissing(cl.command)
		}
		switch {
		case cl != nil:
			cl.finish(resp, nil)
		case !wasAbandoned:
			c.events.put(&ProtocolError{Err: fmt.Errorf("response to unknown id %q", resp.ID), Response: resp})
		}
		return
	}
	var candidates []*call
	for _, cl := range c.pending {
		if cl.command == resp.Command {
			candidates = append(candidates, cl)
		}
	}
	unknown := !resp.Success && isUnknownCommand(resp.Error)
	if unknown {
		c.caps.markMissing(resp.Command)
	}
	// A parse error names no command; it belongs to the one call waiting,
	// if only one is, rather than leaving that call to its timeout.
	if resp.Command == "parse" && !resp.Success && len(c.pending) == 1 {
		for _, cl := range c.pending {
			candidates = []*call{cl}
		}
	}
	// Every call of an unknown command gets the same answer, so all of them
	// can have it; otherwise only a single candidate is certain.
	if unknown || len(candidates) == 1 {
		for _, cl := range candidates {
			delete(c.pending, cl.id)
		}
	} else {
		candidates = nil
	}
	c.mu.Unlock()
	for _, cl := range candidates {
		cl.finish(resp, nil)
	}
	if len(candidates) == 0 {
		c.events.put(&ProtocolError{Err: errors.New("response without id matches no single call"), Response: resp, Line: resp.Command + ": " + resp.Error})
	}
}

// forwardBash gives a bash command's streamed output to its caller.
func (c *Conn) forwardBash(e *BashExecutionUpdate) {
	c.mu.Lock()
	cl := c.pending[e.ID]
	c.mu.Unlock()
	if cl != nil && cl.bash != nil {
		cl.bash.put(e.Delta)
	}
}

// Respond answers an extension dialog by its request id. It does not wait
// for anything: dialogs are answered even while a command waits on them.
func (c *Conn) Respond(requestID string, answer UIAnswer) error {
	rec, err := json.Marshal(answer.record(requestID))
	if err != nil {
		return err
	}
	c.mu.Lock()
	exit, closing := c.exit, c.closing
	c.mu.Unlock()
	if exit != nil {
		return &ExitError{Exit: exit}
	}
	if closing {
		return ErrClosed
	}
	_, err = c.w.enqueue("", append(rec, '\n'))
	return err
}
