package rpcconn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// handshake waits for the agent's answer to get_state, which is what tells
// an agent from any other program: it calls OnSlowStart when the answer is
// slow, and gives up early on a program that prints text and no protocol.
// Capabilities are probed meanwhile.
func (c *Conn) handshake(ctx context.Context) (SessionState, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.StartTimeout)
	defer cancel()
	go c.probeCapabilities()

	type answer struct {
		state SessionState
		err   error
	}
	answered := make(chan answer, 1)
	go func() {
		st, err := c.GetState(ctx)
		answered <- answer{st, err}
	}()
	preambleSeen := c.preambleSeen
	var giveUp, slow <-chan time.Time
	if c.opts.OnSlowStart != nil {
		t := time.NewTimer(c.opts.SlowStart)
		defer t.Stop()
		slow = t.C
	}
	for {
		select {
		case a := <-answered:
			return a.state, c.startFailure(ctx, a.err)
		case <-slow:
			slow = nil
			c.opts.OnSlowStart(c.stderr.String())
		case <-preambleSeen:
			// Something printed text before the protocol. Real agents
			// answer in a moment, so a short wait separates a stray warning
			// from a program that is not an agent at all.
			preambleSeen = nil
			giveUp = time.After(3 * time.Second)
		case <-giveUp:
			c.mu.Lock()
			ok := c.sawRecord
			c.mu.Unlock()
			if !ok {
				return SessionState{}, c.newStartError(NotProtocol, nil)
			}
		}
	}
}

// startFailure turns the error of the get_state call at start into the
// StartError that says why the agent did not start, or nil.
func (c *Conn) startFailure(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var exitErr *ExitError
	switch {
	case c.preambleText() != "" && !c.sawAnyRecord():
		return c.newStartError(NotProtocol, nil)
	case errors.As(err, &exitErr):
		se := c.newStartError(ExitedAtOnce, nil)
		se.Exit = exitErr.Exit
		return se
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		return c.newStartError(NoAnswer, fmt.Errorf("no answer within %v", c.opts.StartTimeout))
	}
	return err
}

func (c *Conn) newStartError(kind StartFailure, err error) *StartError {
	return &StartError{Kind: kind, Path: c.path, Err: err, Output: c.preambleText(), StderrTail: c.stderr.String()}
}

func (c *Conn) sawAnyRecord() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sawRecord
}

func (c *Conn) preambleText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.preamble, "\n")
}

// agentReportWait is how long Start waits for a launcher's report of the
// agent on stderr after the agent answered: ssh carries stderr apart from
// stdout, so what was written first may arrive a moment later.
const agentReportWait = 500 * time.Millisecond

// askAgent asks the launcher which agent runs until it says or
// agentReportWait passes.
func (c *Conn) askAgent(l Launcher) {
	deadline := time.Now().Add(agentReportWait)
	for {
		if agent := l.Agent(c.stderr.String()); agent != "" {
			c.path = agent
			return
		}
		if time.Now().After(deadline) {
			return
		}
		select {
		case <-c.procDone:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}
