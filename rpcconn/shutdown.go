package rpcconn

import (
	"time"

	"knightcode.ai/desktop/proctree"
)

// waitLoop waits for the agent to exit, then ends the connection in order:
// what it wrote is read, pending calls fail with the Exit, the Exit is the
// last event, and what the agent started ends before Done closes.
func (c *Conn) waitLoop() {
	err := c.cmd.Wait()
	close(c.procDone)
	// Everything the agent wrote before it exited is read and handled;
	// a tool holding its stdout or stderr open does not hold the exit.
	stderrDrained := make(chan struct{})
	go func() {
		c.stderrPipe.drain(c.stderrDone)
		close(stderrDrained)
	}()
	c.stdout.drain(c.readDone)
	<-stderrDrained
	c.stdout.f.Close()
	exit := exitFromWait(c.cmd.ProcessState, err)
	exit.StderrTail = c.stderr.String()
	c.mu.Lock()
	exit.Expected = c.closing
	c.mu.Unlock()
	if l := c.opts.Launcher; l != nil && !exit.Expected {
		exit.Reason = l.Exited(exit)
	}
	c.mu.Lock()
	c.exit = exit
	pending := c.pending
	c.pending = map[string]*call{}
	c.mu.Unlock()
	for _, p := range pending {
		p.finish(nil, &ExitError{Exit: exit})
	}
	// Nothing more goes to an agent that is gone; a write blocked because
	// one of its children still holds the pipe ends here.
	c.w.close(&ExitError{Exit: exit})
	c.stdin.Close()
	c.events.closeWith(exit)
	// The exit is out; now what the agent started goes too, before Close
	// returns.
	if !c.opts.LeaveDescendants {
		proctree.End(c.tag, c.cmd.Process.Pid, c.opts.TermGrace)
	}
	c.stderrPipe.f.Close()
	close(c.done)
}

// Close asks the agent to stop (closing its stdin), then terminates and
// finally kills it if it does not. It returns when the process is gone and
// every goroutine of the connection has ended.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		// What waits to be written never will be; a write blocked on a
		// full pipe must not keep the agent alive: closing makes it fail.
		c.w.close(ErrClosed)
		c.stdin.Close()
		select {
		case <-c.procDone:
			return
		case <-time.After(c.opts.StopGrace):
		}
		terminate(c.cmd.Process)
		select {
		case <-c.procDone:
			return
		case <-time.After(c.opts.TermGrace):
		}
		kill(c.cmd.Process)
	})
	<-c.done
	return nil
}
