package model

import (
	"context"
	"fmt"
	"sync"
	"time"

	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/rpcconn"
)

// UI is what the controller needs from the window. Its methods are called
// from the controller's goroutines, never from the UI goroutine; the window
// hops over with uiloop.Do, widgets/kit's one route to the UI goroutine.
type UI interface {
	// Invalidate says the session changed; the window redraws soon,
	// coalescing many calls into one frame.
	Invalidate()
	// ConnectFailed reports that the agent could not be started.
	ConnectFailed(err error)
	// ShowDialog puts an extension's question in front of the user.
	ShowDialog(d Dialog)
	// CloseDialogs closes every open extension dialog (the agent exited).
	CloseDialogs()
	// SetEditorText replaces the draft, keeping the old one recoverable.
	SetEditorText(text string)
	// RestoreDraft puts texts back into the editor after a failed send or
	// a cleared queue, below whatever is there.
	RestoreDraft(text string)
	// GiveBack puts the texts an agent that ended will never take into the
	// editor, oldest first, above whatever is there.
	GiveBack(texts []string)
	// Notify pops up an extension's notification or error.
	Notify(n Notice)
	// Settled says a run ended, stopped when it was stopped rather than
	// finished: panels that follow the session refresh.
	Settled(stopped bool)
	// Do runs f on the UI goroutine, soon; it never waits for it.
	Do(f func())
}

// callTimeout bounds commands that should answer at once; prompt and abort
// can legitimately wait longer (extension commands, slow aborts).
const (
	CallTimeout = 30 * time.Second
	longTimeout = 10 * time.Minute
)

// Controller turns the user's intents into agent commands and the agent's
// events into Session state. Every call to the agent runs on a goroutine of
// its own, so the UI goroutine never waits for the agent.
type Controller struct {
	session *Session
	ui      UI
	opts    rpcconn.Options

	mu     sync.Mutex
	conn   *rpcconn.Conn
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// gen numbers connection attempts: only the latest one's events and
	// results reach the session (see apply).
	gen uint64
	// stopAttempt cancels the start in progress.
	stopAttempt context.CancelFunc
	// connecting is true from the start of an attempt until the agent is
	// loaded or the attempt failed; what the user sends meanwhile is held.
	connecting bool
	held       []heldSend
	// applyMu serialises changes to the session made for a connection, so
	// a connection that stopped being the current one cannot change the
	// session after its successor did.
	applyMu sync.Mutex
	// OnReady (may be nil) runs once the agent is connected and loaded.
	OnReady func()
	// BeforePrompt (may be nil) runs before every prompt, steer and
	// follow-up goes out, on the sending goroutine (the window keeps a
	// checkpoint there); ctx ends when the prompt is taken back.
	BeforePrompt func(ctx context.Context)
	// remote is set when the agent runs on an SSH host.
	remote *remoteAgent
	// capturing takes the notifications of a command whose output a
	// panel reads (CommandOutput).
	capturing *capture
	// inflight are prompts on their way, shown as waiting.
	inflight []*inflight
	// diedWith are sends the agent's end failed before its exit event was
	// handled; exitHandled is the connection whose exit gave back what it
	// had (see controller_giveback.go).
	diedWith    []lostSend
	exitHandled *rpcconn.Conn
}

// NewController prepares a controller; Start connects.
func NewController(s *Session, ui UI, opts rpcconn.Options) *Controller {
	ctx, cancel := context.WithCancel(context.Background())
	return &Controller{session: s, ui: ui, opts: opts, ctx: ctx, cancel: cancel}
}

// Start connects to the agent in the background. A session file the
// agent is to open is painted from the file meanwhile.
func (c *Controller) Start() {
	c.paintFromFile(sessionArg(c.Options().Args))
	c.goConnect("", false)
}

// Restart starts a fresh agent and resumes the session file the previous
// one had, when it had one. The old agent, or a start still in progress, is
// stopped; nothing it does afterwards reaches the window.
func (c *Controller) Restart() {
	resume := c.session.SessionFile()
	// What the old agent has not taken goes to the new one, once.
	c.moveInflight()
	c.mu.Lock()
	old := c.conn
	c.conn = nil
	c.mu.Unlock()
	c.ui.CloseDialogs()
	if old != nil {
		c.spawn(func() { old.Close() })
	}
	c.goConnect(resume, true)
}

// goConnect starts a new connection attempt in the background, ending the
// one in progress. On a restart the transcript on screen is kept unless the
// agent resumes a session that replaces it.
func (c *Controller) goConnect(resume string, restart bool) {
	c.mu.Lock()
	c.gen++
	gen := c.gen
	if c.stopAttempt != nil {
		c.stopAttempt()
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.stopAttempt = cancel
	c.connecting = true
	c.mu.Unlock()
	c.spawn(func() {
		defer cancel()
		c.connect(ctx, gen, resume, restart)
	})
}

// spawn runs f on a goroutine that Shutdown waits for.
func (c *Controller) spawn(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

// isCurrent reports whether attempt gen is the latest one.
func (c *Controller) isCurrent(gen uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return gen == c.gen && !c.closed
}

// apply runs f, which changes the session or the window for attempt gen,
// if gen is still the current attempt; it reports whether f ran.
func (c *Controller) apply(gen uint64, f func()) bool {
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	if !c.isCurrent(gen) {
		return false
	}
	f()
	return true
}

// applyFor runs f, which changes the session or the window for conn, if
// conn is still the live connection; it reports whether f ran.
func (c *Controller) applyFor(conn *rpcconn.Conn, f func()) bool {
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	c.mu.Lock()
	current := c.conn == conn && !c.closed
	c.mu.Unlock()
	if !current {
		return false
	}
	f()
	return true
}

// SetOptions changes how the next start or Restart runs the agent (the
// settings changed).
func (c *Controller) SetOptions(opts rpcconn.Options) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opts = opts
}

// Options are what the agent is started with: its command, folder and
// environment.
func (c *Controller) Options() rpcconn.Options {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opts
}

func (c *Controller) connect(ctx context.Context, gen uint64, resume string, restart bool) {
	opts := c.Options()
	c.apply(gen, func() {
		c.session.SetAgentName(agentDisplayName(opts.Path))
		c.session.SetConn(ConnStarting, "")
	})
	c.ui.Invalidate()
	opts.OnSlowStart = func(stderrTail string) {
		c.apply(gen, func() { c.session.SetSlowStart(stderrTail) })
		c.ui.Invalidate()
	}
	conn, err := rpcconn.Start(ctx, opts)
	if err != nil {
		if c.apply(gen, func() {
			c.session.SetStartFailed(err)
			c.ui.ConnectFailed(err)
		}) {
			c.returnHeld(gen, "Not sent: "+c.session.AgentName()+" could not be started. Your text is back in the editor.")
		}
		c.ui.Invalidate()
		return
	}
	c.mu.Lock()
	if c.closed || gen != c.gen {
		c.mu.Unlock()
		conn.Close()
		return
	}
	c.conn = conn
	c.mu.Unlock()

	state := conn.InitialState()
	if resume != "" && resume != state.SessionFile {
		ctx, cancel := context.WithTimeout(c.ctx, CallTimeout)
		cancelled, err := conn.SwitchSession(ctx, resume)
		cancel()
		switch {
		case err != nil:
			c.applyFor(conn, func() { c.session.Notice(NoticeError, "Could not resume "+resume+": "+err.Error()) })
		case cancelled:
			c.applyFor(conn, func() { c.session.Notice(NoticeWarning, "An extension declined resuming "+resume) })
		default:
			if st, err := c.getState(conn); err == nil {
				state = st
			}
		}
	}
	detail := ""
	if c.remote != nil {
		// Over ssh the status bar says where, and how far: one get_state
		// round trip, what every command pays on top of its work.
		began := time.Now()
		if st, err := c.getState(conn); err == nil {
			state = st
		}
		detail = fmt.Sprintf("%s · %d ms round trip", c.remote.spec.Host.Name(), time.Since(began).Milliseconds())
	}
	if !c.apply(gen, func() {
		c.session.SetState(state)
		c.session.SetAgentName(agentDisplayName(conn.Path()))
		c.session.SetConn(ConnReady, detail)
	}) {
		return
	}
	trace.Mark("connected")
	c.spawn(func() { c.eventLoop(conn) })
	c.loadAll(conn, restart)
}

// eventLoop applies events in batches: a burst of deltas costs one redraw.
// Once the connection is no longer the current one (Restart), its events
// are read and dropped: a slow-dying old agent neither marks the new one
// exited nor closes its dialogs.
func (c *Controller) eventLoop(conn *rpcconn.Conn) {
	var batch []rpcconn.Event
	for {
		<-conn.EventsReady()
		var more bool
		batch, more = conn.TakeEvents(batch[:0])
		if c.applyFor(conn, func() {
			c.session.SetCapabilities(conn.Capabilities())
			for _, ev := range batch {
				c.handle(conn, ev)
			}
		}) {
			c.ui.Invalidate()
		}
		clear(batch)
		if !more {
			return
		}
	}
}

func (c *Controller) handle(conn *rpcconn.Conn, ev rpcconn.Event) {
	fx := c.session.Apply(ev)
	if fx.Settled {
		c.spawn(func() {
			ctx, cancel := context.WithTimeout(c.ctx, CallTimeout)
			defer cancel()
			c.loadStats(ctx, conn)
			c.ui.Invalidate()
		})
		c.ui.Settled(fx.Stopped)
	}
	for _, n := range fx.Notices {
		if !c.captured(n) {
			c.ui.Notify(n)
		}
	}
	for _, d := range fx.Dialogs {
		c.ui.ShowDialog(newDialog(d))
	}
	if fx.EditorText != nil {
		c.ui.SetEditorText(*fx.EditorText)
	}
	if _, exited := ev.(*rpcconn.Exit); exited {
		c.ui.CloseDialogs()
		c.giveBack(conn, fx.GiveBack)
	}
}

// current returns the live connection, or nil.
func (c *Controller) current() *rpcconn.Conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil || c.conn.ExitInfo() != nil {
		return nil
	}
	return c.conn
}

// do runs a command against the live connection in the background and
// reports failures in the transcript.
func (c *Controller) do(what string, timeout time.Duration, f func(context.Context, *rpcconn.Conn) error) {
	conn := c.current()
	if conn == nil {
		c.mu.Lock()
		starting := c.connecting
		c.mu.Unlock()
		if starting {
			c.session.Notice(NoticeWarning, what+": the agent is still starting; try again in a moment.")
		} else {
			c.session.Notice(NoticeWarning, what+": the agent is not running.")
		}
		c.ui.Invalidate()
		return
	}
	c.spawn(func() {
		ctx, cancel := context.WithTimeout(c.ctx, timeout)
		defer cancel()
		if err := f(ctx, conn); err != nil {
			c.report(what, err)
		}
		c.ui.Invalidate()
	})
}

func (c *Controller) report(what string, err error) {
	if AgentGone(err) {
		return
	}
	c.session.Notice(NoticeError, what+": "+err.Error())
}

// SelectModel switches model and refreshes the thinking levels.
func (c *Controller) SelectModel(provider, id string) {
	c.do("Switch model", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		m, err := conn.SetModel(ctx, provider, id)
		if err != nil {
			return err
		}
		c.session.SetModel(&m, "")
		return c.afterModelChange(ctx, conn)
	})
}

// CycleModel moves to the next model (Ctrl+P).
func (c *Controller) CycleModel() {
	c.do("Cycle model", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		r, err := conn.CycleModel(ctx)
		if err != nil || r == nil {
			return err
		}
		c.session.SetModel(&r.Model, r.ThinkingLevel)
		return c.afterModelChange(ctx, conn)
	})
}

func (c *Controller) afterModelChange(ctx context.Context, conn *rpcconn.Conn) error {
	c.loadLevels(ctx, conn)
	c.loadStats(ctx, conn) // the context window is the new model's
	// The agent may have adjusted the thinking level to the new model.
	st, err := conn.GetState(ctx)
	if err == nil {
		c.session.SetThinking(st.ThinkingLevel)
	}
	return err
}

// SelectThinking sets the thinking level; the agent's state says what it
// really chose (pi 0.73.1 quietly takes the nearest level the model has).
// A level the model did not take is no longer offered for it, and the
// user is told which one it took.
func (c *Controller) SelectThinking(level string) {
	c.do("Set thinking level", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		if err := conn.SetThinkingLevel(ctx, level); err != nil {
			return err
		}
		st, err := conn.GetState(ctx)
		if err != nil {
			return err
		}
		c.session.SetThinking(st.ThinkingLevel)
		if st.ThinkingLevel != level {
			c.session.DropLevel(level)
			c.ui.Notify(Notice{Time: time.Now(), Level: NoticeWarning,
				Text: TookOtherLevel(level, st.ThinkingLevel)})
		}
		return nil
	})
}

// TookOtherLevel says that the model took another thinking level than the
// one chosen.
func TookOtherLevel(chosen, took string) string {
	return "The model took " + took + ", not " + chosen + "."
}

// CycleThinking moves to the next thinking level (Shift+Tab).
func (c *Controller) CycleThinking() {
	c.do("Cycle thinking level", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		level, ok, err := conn.CycleThinkingLevel(ctx)
		if err == nil && ok {
			c.session.SetThinking(level)
		}
		return err
	})
}

// NewSession starts a fresh session (Ctrl+N).
func (c *Controller) NewSession() {
	c.do("New session", CallTimeout, func(ctx context.Context, conn *rpcconn.Conn) error {
		cancelled, err := conn.NewSession(ctx, "")
		if err != nil {
			return err
		}
		if cancelled {
			c.session.Notice(NoticeWarning, "An extension declined starting a new session.")
			return nil
		}
		st, err := conn.GetState(ctx)
		if err != nil {
			return err
		}
		c.session.SetState(st)
		c.session.LoadHistory(nil)
		c.loadStats(ctx, conn)
		return nil
	})
}

// Respond answers an extension dialog.
func (c *Controller) Respond(requestID string, answer Answer) {
	conn := c.current()
	if conn == nil {
		return
	}
	c.spawn(func() {
		if err := conn.Respond(requestID, answer.ui); err != nil {
			c.report("Could not answer the extension", err)
			c.ui.Invalidate()
		}
	})
}

// Shutdown stops the agent (stdin closed, then terminate, then kill) and
// waits for every goroutine of the controller.
func (c *Controller) Shutdown() {
	c.mu.Lock()
	c.closed = true
	conn := c.conn
	c.mu.Unlock()
	c.cancel()
	if conn != nil {
		conn.Close()
	}
	c.wg.Wait()
}
