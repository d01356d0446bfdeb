package rpcconn

import "encoding/json"

// MessageBuilder assembles the assistant message being streamed from
// message_start, the message_update deltas (by contentIndex) and
// message_end, which is authoritative. It does no I/O.
type MessageBuilder struct {
	base      Message
	blocks    []liveBlock
	streaming bool
	// version counts changes, so a consumer can skip unchanged snapshots.
	version uint64
}

type liveBlock struct {
	block ContentBlock
	// buf accumulates text, thinking or tool-argument JSON; appending to a
	// byte slice keeps a 50,000-delta reply linear.
	buf []byte
}

// Apply folds an event in and reports whether the live message changed.
func (b *MessageBuilder) Apply(ev Event) bool {
	switch e := ev.(type) {
	case *MessageStart:
		if e.Message.Role != RoleAssistant {
			return false
		}
		b.base = e.Message
		b.blocks = b.blocks[:0]
		for _, blk := range e.Message.Content {
			b.blocks = append(b.blocks, liveBlock{block: blk, buf: []byte(blockText(blk))})
		}
		b.base.Content = nil
		b.streaming = true
	case *MessageUpdate:
		if !b.streaming {
			return false
		}
		b.applyDelta(&e.Delta)
		if e.Usage != nil {
			u := *e.Usage
			b.base.Usage = &u
		}
	case *MessageEnd:
		if e.Message.Role != RoleAssistant || !b.streaming {
			return false
		}
		b.base = e.Message
		b.blocks = b.blocks[:0]
		b.streaming = false
	default:
		return false
	}
	b.version++
	return true
}

func (b *MessageBuilder) applyDelta(d *AssistantDelta) {
	i := d.ContentIndex
	if i < 0 || i > 1<<20 {
		return
	}
	for len(b.blocks) <= i {
		b.blocks = append(b.blocks, liveBlock{})
	}
	lb := &b.blocks[i]
	switch d.Type {
	case DeltaTextStart:
		*lb = liveBlock{block: ContentBlock{Type: ContentText}}
	case DeltaThinkingStart:
		*lb = liveBlock{block: ContentBlock{Type: ContentThinking}}
	case DeltaToolCallStart:
		*lb = liveBlock{block: ContentBlock{Type: ContentToolCall, ID: d.ID, Name: d.ToolName}}
	case DeltaTextDelta, DeltaThinkingDelta, DeltaToolCallDelta:
		if lb.block.Type == "" {
			lb.block.Type = deltaBlockType(d.Type)
		}
		lb.buf = append(lb.buf, d.Delta...)
	case DeltaTextEnd, DeltaThinkingEnd:
		if lb.block.Type == "" {
			lb.block.Type = deltaBlockType(d.Type)
		}
		if d.Content != "" || len(lb.buf) == 0 {
			lb.buf = append(lb.buf[:0], d.Content...)
		}
	case DeltaToolCallEnd:
		if d.ToolCall != nil {
			lb.block = *d.ToolCall
			lb.buf = append(lb.buf[:0], d.ToolCall.Arguments...)
		}
	}
}

func deltaBlockType(delta string) string {
	switch delta {
	case DeltaThinkingDelta, DeltaThinkingEnd:
		return ContentThinking
	case DeltaToolCallDelta:
		return ContentToolCall
	}
	return ContentText
}

func blockText(b ContentBlock) string {
	switch b.Type {
	case ContentText:
		return b.Text
	case ContentThinking:
		return b.Thinking
	case ContentToolCall:
		return string(b.Arguments)
	}
	return ""
}

// Streaming reports whether an assistant message is being streamed.
func (b *MessageBuilder) Streaming() bool { return b.streaming }

// Version changes whenever the live message does.
func (b *MessageBuilder) Version() uint64 { return b.version }

// Message returns the message as far as it has arrived: the live one while
// streaming, the authoritative one after message_end. Tool-call arguments
// still streaming are kept as the raw JSON text so far, in Arguments only
// when they already form valid JSON.
func (b *MessageBuilder) Message() Message {
	if !b.streaming {
		return b.base
	}
	m := b.base
	m.Content = make(Content, len(b.blocks))
	for i, lb := range b.blocks {
		blk := lb.block
		switch blk.Type {
		case ContentText:
			blk.Text = string(lb.buf)
		case ContentThinking:
			blk.Thinking = string(lb.buf)
		case ContentToolCall:
			if len(lb.buf) > 0 && json.Valid(lb.buf) {
				blk.Arguments = append(json.RawMessage(nil), lb.buf...)
			}
		}
		m.Content[i] = blk
	}
	return m
}

// PartialArguments returns the tool-call argument JSON streamed so far for
// the block at index, for showing a call before it is complete.
func (b *MessageBuilder) PartialArguments(index int) string {
	if index < 0 || index >= len(b.blocks) {
		return ""
	}
	return string(b.blocks[index].buf)
}

// ToolRun is one tool execution as far as it has gone.
type ToolRun struct {
	ToolCallID string
	ToolName   string
	Args       json.RawMessage
	// Output is the latest accumulated result: each update replaces it.
	Output  ToolResult
	Done    bool
	IsError bool
	// Updates counts the partial results received.
	Updates int
	// DurationMs is the agent's own measure of the run, when it gives one.
	DurationMs int64
}

// ToolTracker follows tool executions from tool_execution_* events.
type ToolTracker struct {
	runs  map[string]*ToolRun
	order []string
}

// Apply folds an event in; it returns the run that changed, or nil.
func (t *ToolTracker) Apply(ev Event) *ToolRun {
	switch e := ev.(type) {
	case *ToolExecutionStart:
		r := t.run(e.ToolCallID, e.ToolName)
		r.Args = e.Args
		return r
	case *ToolExecutionUpdate:
		r := t.run(e.ToolCallID, e.ToolName)
		if r.Args == nil {
			r.Args = e.Args
		}
		r.Output = e.PartialResult
		r.Updates++
		return r
	case *ToolExecutionEnd:
		r := t.run(e.ToolCallID, e.ToolName)
		r.Output = e.Result
		r.Done = true
		r.IsError = e.IsError
		r.DurationMs = e.DurationMs
		return r
	}
	return nil
}

func (t *ToolTracker) run(id, name string) *ToolRun {
	if t.runs == nil {
		t.runs = map[string]*ToolRun{}
	}
	r := t.runs[id]
	if r == nil {
		r = &ToolRun{ToolCallID: id, ToolName: name}
		t.runs[id] = r
		t.order = append(t.order, id)
	}
	return r
}

// Get returns the run of a tool call, or nil.
func (t *ToolTracker) Get(toolCallID string) *ToolRun { return t.runs[toolCallID] }

// Prepend puts the runs of older, tracked apart (the older part of a long
// session's history, converted on its own), before t's. A run both track
// keeps t's state and older's place in the order, as if one tracker had
// seen everything.
func (t *ToolTracker) Prepend(older *ToolTracker) {
	if len(older.order) == 0 {
		return
	}
	if t.runs == nil {
		t.runs = make(map[string]*ToolRun, len(older.runs))
	}
	order := make([]string, 0, len(older.order)+len(t.order))
	order = append(order, older.order...)
	for _, id := range t.order {
		if older.runs[id] == nil {
			order = append(order, id)
		}
	}
	for id, r := range older.runs {
		if t.runs[id] == nil {
			t.runs[id] = r
		}
	}
	t.order = order
}

// Runs returns all runs in the order they started.
func (t *ToolTracker) Runs() []*ToolRun {
	out := make([]*ToolRun, len(t.order))
	for i, id := range t.order {
		out[i] = t.runs[id]
	}
	return out
}

// RunTracker knows whether the agent is working. A run is over at
// agent_settled; an agent without that event (see Capabilities) is settled
// at agent_end with willRetry false. Such an agent delivers steering and
// follow-up messages inside its run, before agent_end: messages still
// queued at agent_end (after an abort or an error) wait for the next
// prompt, so they must not hold the run open. Should the agent go on by
// itself after all (a compaction kicking the queue), its agent_start starts
// a run again.
type RunTracker struct {
	running bool
}

// Apply folds an event in and reports whether the run settled with it.
func (r *RunTracker) Apply(ev Event, agentSendsSettled bool) (settled bool) {
	switch e := ev.(type) {
	case *AgentStart:
		r.running = true
	case *AgentEnd:
		if !agentSendsSettled && !e.WillRetry && r.running {
			r.running = false
			return true
		}
	case *AgentSettled:
		wasRunning := r.running
		r.running = false
		return wasRunning
	case *Exit:
		wasRunning := r.running
		r.running = false
		return wasRunning
	}
	return false
}

// Running reports whether a run is in progress.
func (r *RunTracker) Running() bool { return r.running }
