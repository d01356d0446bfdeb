package rpcconn

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"

	"knightcode.ai/desktop/proctree"
)

// Conn is a running agent. One goroutine reads its stdout and never waits for
// anyone; writes to its stdin are serialised. Events are taken in batches
// (TakeEvents) so a consumer can coalesce them.
type Conn struct {
	opts   Options
	path   string
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *watchedReader
	stderr *tailBuffer
	// stderrPipe is read into stderr until stderrDone.
	stderrPipe *watchedReader
	stderrDone chan struct{}
	// tag marks the agent and everything it starts (proctree).
	tag string

	// w writes to stdin (see writer).
	w      *writer
	events *mailbox[Event]
	nextID atomic.Uint64
	caps   capabilities

	mu        sync.Mutex
	pending   map[string]*call
	abandoned map[string]bool
	exit      *Exit
	closing   bool
	sawRecord bool
	preamble  []string
	// preambleSeen is closed at the first non-protocol line before any
	// protocol record.
	preambleSeen chan struct{}

	initial   SessionState
	procDone  chan struct{}
	readDone  chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	nextMu  sync.Mutex
	nextBuf []Event
}

// Start runs the agent with "--mode rpc" and waits for its answer to
// get_state. Failures to get that far are *StartError.
func Start(ctx context.Context, opts Options) (*Conn, error) {
	opts.defaults()
	path, argv, err := resolveCommand(opts)
	if err != nil {
		return nil, err
	}
	c := &Conn{
		opts:         opts,
		path:         path,
		stderr:       newTailBuffer(stderrTailSize),
		events:       newMailbox[Event](),
		pending:      map[string]*call{},
		abandoned:    map[string]bool{},
		preambleSeen: make(chan struct{}),
		procDone:     make(chan struct{}),
		readDone:     make(chan struct{}),
		done:         make(chan struct{}),
		stderrDone:   make(chan struct{}),
		tag:          proctree.NewTag(),
	}
	if err := c.spawn(argv); err != nil {
		return nil, c.launchFailure(err)
	}
	state, err := c.handshake(ctx)
	if err != nil {
		c.Close()
		return nil, c.launchFailure(err)
	}
	c.initial = state
	if l := opts.Launcher; l != nil {
		c.askAgent(l)
	}
	return c, nil
}

// Done is closed when the agent has exited, every event was queued and,
// unless Options.LeaveDescendants, what the agent started has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// ExitInfo is how the agent ended, or nil while it runs.
func (c *Conn) ExitInfo() *Exit {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exit
}

// Tag is the agent's proctree tag: the value of proctree.EnvTag in the
// environment of the agent and of everything it starts.
func (c *Conn) Tag() string { return c.tag }

// PID is the agent's process id.
func (c *Conn) PID() int { return c.cmd.Process.Pid }

// Path is the agent binary that was started (for a Launcher, the agent it
// reported, else Options.Path or the launcher's program).
func (c *Conn) Path() string { return c.path }

// InitialState is the agent's answer to get_state at start.
func (c *Conn) InitialState() SessionState { return c.initial }

// StderrTail is the end of what the agent wrote to stderr so far.
func (c *Conn) StderrTail() string { return c.stderr.String() }
