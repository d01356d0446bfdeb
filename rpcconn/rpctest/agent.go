package rpctest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// agent is the fake agent's state. mu guards everything below it; events
// that report a state change are written while mu is held, so their order on
// stdout is the order of the changes.
type agent struct {
	opts   options
	out    *writer
	stderr io.Writer
	cwd    string

	mu             sync.Mutex
	models         []model
	model          int // index into models, -1 for none
	level          string
	preferredLevel string // restored when a reasoning model is chosen again
	steeringMode   string
	followUpMode   string
	autoCompaction bool
	autoRetry      bool
	sess           *session
	steering       []queuedMessage
	followUp       []queuedMessage
	run            *run      // the active run, nil when settled
	compactions    int       // compactions in progress, for isCompacting
	cancels        cancelSet // stopped by abort
	bashCancels    cancelSet // stopped by abort_bash
	dialogs        map[string]chan json.RawMessage
}

type queuedMessage struct {
	Text   string
	Images []imageContent
}

func newAgent(opts options, stdout, stderr io.Writer) (*agent, error) {
	models, err := modelSets(opts.ModelSet)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	a := &agent{
		opts: opts, out: newWriter(stdout), stderr: stderr, cwd: cwd,
		models: models, model: -1, level: "off", preferredLevel: "medium",
		steeringMode: "one-at-a-time", followUpMode: "one-at-a-time",
		autoCompaction: true, autoRetry: true,
		cancels: cancelSet{}, bashCancels: cancelSet{}, dialogs: map[string]chan json.RawMessage{},
	}
	if err := a.openSession(); err != nil {
		return nil, err
	}
	a.selectStartModel()
	if opts.Name != "" {
		a.sess.Name = opts.Name
		a.sess.append("session_info", "name", opts.Name)
	}
	return a, nil
}

// openSession opens --session FILE, creating it only if it does not exist,
// so a file that merely fails to parse is never overwritten.
func (a *agent) openSession() (err error) {
	file := a.opts.SessionFile
	if file == "" || a.opts.NoSession {
		a.sess, err = newSession(a.sessionDir(), a.cwd, "")
		return err
	}
	if _, statErr := os.Stat(file); statErr == nil {
		a.sess, err = loadSession(file)
		return err
	}
	a.sess, _ = newSession("", a.cwd, "")
	a.sess.File = file
	return a.sess.writeHeader()
}

// sessionDir is where new sessions are saved; "" keeps them in memory.
func (a *agent) sessionDir() string {
	if a.opts.NoSession {
		return ""
	}
	return a.opts.SessionDir
}

// selectStartModel honours --model provider/id[:level], --model id and
// --thinking; otherwise the thinker (the richer model) is chosen if present.
func (a *agent) selectStartModel() {
	if len(a.models) == 0 {
		return
	}
	a.model = 0
	for i := range a.models {
		if a.models[i].key() == thinkerModel.key() {
			a.model = i
		}
	}
	pattern, level := a.opts.Model, a.opts.Thinking
	if p, l, ok := cutLast(pattern, ":"); ok {
		pattern, level = p, l
	}
	for i, m := range a.models {
		if pattern != "" && (m.key() == pattern || m.ID == pattern) {
			a.model = i
		}
	}
	if level != "" {
		a.preferredLevel = level
	}
	a.level = a.clampLevel(a.preferredLevel)
}

func (a *agent) currentModel() *model {
	if a.model < 0 {
		return nil
	}
	return &a.models[a.model]
}

func (a *agent) emit(v any) { a.out.send(v) }

// command is every field any command may carry; each handler reads its own.
type command struct {
	ID                 json.RawMessage `json:"id"`
	Type               *string         `json:"type"`
	Message            string          `json:"message"`
	Images             []imageContent  `json:"images"`
	StreamingBehavior  string          `json:"streamingBehavior"`
	Provider           string          `json:"provider"`
	ModelID            string          `json:"modelId"`
	Level              string          `json:"level"`
	Mode               string          `json:"mode"`
	CustomInstructions string          `json:"customInstructions"`
	Enabled            *bool           `json:"enabled"`
	Command            string          `json:"command"`
	OutputPath         string          `json:"outputPath"`
	SessionPath        string          `json:"sessionPath"`
	ParentSession      string          `json:"parentSession"`
	EntryID            string          `json:"entryId"`
	Since              *string         `json:"since"`
	Name               *string         `json:"name"`

	raw json.RawMessage
}

func (c *command) typ() string {
	if c.Type == nil {
		return "undefined" // what the JavaScript agent prints for a missing type
	}
	return *c.Type
}

// errDeferred marks a command whose response is written later, by whatever
// finishes it: a run answering its prompt late or an abort after agent_end,
// an extension command after its dialog, a background bash or compaction.
var errDeferred = errors.New("response deferred")

type handler struct {
	fn func(a *agent, c *command) (any, error)
	// async handlers may wait (for a run to stop, a dialog, a fake shell), so
	// they run on their own goroutine and their responses may come out of
	// order, as the agent's do.
	async bool
	// newer commands are unknown to the older agent.
	newer bool
}

func (a *agent) handleLine(line []byte) {
	c := &command{raw: line}
	if err := json.Unmarshal(line, c); err != nil {
		a.emit(obj("type", "response", "command", "parse", "success", false,
			"error", "Failed to parse command: "+err.Error()))
		return
	}
	if c.typ() == "extension_ui_response" {
		a.answerDialog(c)
		return
	}
	if a.opts.ParseError != "" && c.typ() == a.opts.ParseError {
		a.emit(obj("type", "response", "command", "parse", "success", false,
			"error", "Failed to parse command: Unexpected token in JSON at position 0"))
		return
	}
	h, ok := handlers[c.typ()]
	if !ok || (h.newer && a.opts.Older) {
		id := c.ID
		if a.opts.Older {
			id = nil // the older agent loses the id of an unknown command
		}
		a.emit(response{ID: id, Type: "response", Command: c.typ(), Success: false,
			Error: "Unknown command: " + c.typ()})
		return
	}
	if h.async || (c.typ() == "get_messages" && a.holdsMessages()) {
		go a.finish(c, h)
		return
	}
	a.finish(c, h)
}

func (a *agent) finish(c *command, h handler) {
	data, err := h.fn(a, c)
	if err != errDeferred {
		a.respond(c, data, err)
	}
}

type response struct {
	ID      json.RawMessage `json:"id,omitempty"`
	Type    string          `json:"type"`
	Command string          `json:"command"`
	Success bool            `json:"success"`
	Data    any             `json:"data,omitempty"`
	Error   string          `json:"error,omitempty"`
}

func (a *agent) respond(c *command, data any, err error) {
	a.out.send(a.responseFor(c, data, err))
}

func (a *agent) responseFor(c *command, data any, err error) response {
	r := response{ID: c.ID, Type: "response", Command: c.typ(), Success: err == nil, Data: data}
	if err != nil {
		r.Data, r.Error = nil, err.Error()
	}
	return r
}

// errorf builds an error whose text a client shows verbatim, so it follows
// the agent's wording ("Model not found: x/y"), not Go's error style.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

type cancelSet map[*context.CancelFunc]struct{}

// track registers cancel in set so a command can stop work it did not start
// (abort stops a manual compaction or an extension command's dialog,
// abort_bash a fake shell); the returned func unregisters and cancels.
func (a *agent) track(set cancelSet, cancel context.CancelFunc) func() {
	a.mu.Lock()
	set[&cancel] = struct{}{}
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		delete(set, &cancel)
		a.mu.Unlock()
		cancel()
	}
}

// cancelAll must be called with a.mu held.
func (set cancelSet) cancelAll() {
	for c := range set {
		(*c)()
	}
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
