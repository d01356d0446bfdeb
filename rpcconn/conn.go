package rpcconn

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"knightcode.ai/desktop/proctree"
)

// Options say how to start the agent.
type Options struct {
	// Path is the agent binary: a path, or a name looked up on PATH.
	Path string
	// Args are extra arguments, passed after "--mode rpc".
	Args []string
	// Dir is the agent's working folder; empty means ours.
	Dir string
	// Env is extra environment (KEY=VALUE), on top of ours.
	Env []string
	// ExactEnv makes Env the agent's whole environment, for hermetic runs
	// (tests) where none of our variables — API keys, proxies — may leak.
	ExactEnv bool
	// StartTimeout bounds the wait for the agent's first answer (60 s).
	StartTimeout time.Duration
	// OnSlowStart, if set, is called once when the agent has not answered
	// within SlowStart (10 s), with the end of its stderr so far; the start
	// goes on until StartTimeout. It runs on a goroutine of the connection
	// and must not block.
	OnSlowStart func(stderrTail string)
	SlowStart   time.Duration
	// StopGrace is how long Close waits after closing stdin before SIGTERM
	// (3 s), and TermGrace how long after SIGTERM before SIGKILL (2 s).
	StopGrace, TermGrace time.Duration
	// Launcher, when set, starts the agent through another program (ssh,
	// in package remote) instead of running Path; see Launcher.
	Launcher Launcher
	// LeaveDescendants keeps the connection from ending what the agent
	// started when it ends (see proctree.End): for a launcher whose
	// descendants are not the agent's, such as ssh's ControlMaster, which
	// belongs to the user's other sessions.
	LeaveDescendants bool
}

func (o *Options) defaults() {
	if o.StartTimeout <= 0 {
		o.StartTimeout = 60 * time.Second
	}
	if o.SlowStart <= 0 {
		o.SlowStart = 10 * time.Second
	}
	if o.StopGrace <= 0 {
		o.StopGrace = 3 * time.Second
	}
	if o.TermGrace <= 0 {
		o.TermGrace = 2 * time.Second
	}
}

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

// resolveCommand finds the program to run and its whole argv: the agent
// with "--mode rpc" and Args, or the launcher's command. path is what
// messages name: the agent, or for a launcher Options.Path if set.
func resolveCommand(opts Options) (path string, argv []string, err error) {
	if opts.Launcher == nil {
		path, err = resolveAgent(opts.Path)
		if err != nil {
			return "", nil, err
		}
		return path, append([]string{path, "--mode", "rpc"}, opts.Args...), nil
	}
	argv = append([]string(nil), opts.Launcher.Command()...)
	if len(argv) == 0 {
		return "", nil, &StartError{Kind: NotFound, Path: opts.Path, Err: errors.New("the launcher gave no command")}
	}
	prog, err := resolveAgent(argv[0])
	if err != nil {
		se := err.(*StartError)
		if r := opts.Launcher.StartFailed(se); r != "" {
			se.Reason = r
		}
		return "", nil, se
	}
	argv[0] = prog
	path = opts.Path
	if path == "" {
		path = prog
	}
	return path, argv, nil
}

// launchFailure lets the launcher, if any, say why a start failed.
func (c *Conn) launchFailure(err error) error {
	var se *StartError
	if l := c.opts.Launcher; l != nil && errors.As(err, &se) && se.Reason == "" {
		se.Reason = l.StartFailed(se)
	}
	return err
}

func resolveAgent(name string) (string, error) {
	if name == "" {
		return "", &StartError{Kind: NotFound, Path: name, Err: errors.New("no agent binary given")}
	}
	if strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		abs, err := filepath.Abs(name)
		if err == nil {
			name = abs
		}
		info, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", &StartError{Kind: NotFound, Path: name}
		case err != nil:
			return "", &StartError{Kind: NotExecutable, Path: name, Err: err}
		case info.IsDir():
			return "", &StartError{Kind: NotExecutable, Path: name, Err: errors.New("it is a folder")}
		}
	}
	path, err := exec.LookPath(name)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, exec.ErrNotFound) && !strings.ContainsRune(name, '/'):
		return "", &StartError{Kind: NotFound, Path: name, Err: errors.New("not on PATH")}
	case errors.Is(err, fs.ErrNotExist):
		return "", &StartError{Kind: NotFound, Path: name}
	default:
		return "", &StartError{Kind: NotExecutable, Path: name, Err: errors.Unwrap(err)}
	}
}

func (c *Conn) spawn(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.opts.Dir
	cmd.Env = append(os.Environ(), c.opts.Env...)
	if c.opts.ExactEnv {
		cmd.Env = append([]string(nil), c.opts.Env...)
	}
	cmd.Env = append(cmd.Env, proctree.EnvVar(c.tag))
	isolate(cmd)

	// Our own pipes rather than StdinPipe/StdoutPipe: Wait must not close
	// stdout under the reader, and closing stdin must not wait for Wait.
	// stderr too: exec's copying goroutine would hold Wait for as long as
	// a tool keeps the agent's stderr open.
	var pipes []*os.File
	closeAll := func() {
		for _, f := range pipes {
			f.Close()
		}
	}
	for range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return err
		}
		pipes = append(pipes, r, w)
	}
	stdinR, stdinW, stdoutR, stdoutW, stderrR, stderrW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	if err := startProcess(cmd); err != nil {
		closeAll()
		kind := NotExecutable
		if errors.Is(err, fs.ErrNotExist) {
			kind = NotFound
		}
		return &StartError{Kind: kind, Path: c.path, Err: errors.Unwrap(err), StderrTail: c.stderr.String()}
	}
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()
	c.cmd, c.stdin, c.stdout = cmd, stdinW, newWatchedReader(stdoutR)
	c.stderrPipe = newWatchedReader(stderrR)
	c.w = newWriter(stdinW)
	go copyStderr(c.stderr, c.stderrPipe, c.stderrDone)
	go c.readLoop()
	go c.waitLoop()
	return nil
}

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
