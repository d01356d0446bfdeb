package model

import (
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// The session's tool calls: what the sidebar lists and the chips in the
// replies, from a call's first streamed delta to its result.

// toolMeta is what the session keeps of one tool call.
type toolMeta struct {
	started, ended time.Time
	turn           int
	rev            uint64
	// itemIndex is the chat item holding the call's chip, or -1.
	itemIndex int
	// card is the last conversion for the sidebar, valid while its
	// Revision equals rev.
	card ToolCard
	// history marks a call that came with a stored session.
	history bool
	// listed says the call is in toolOrder: from its first streamed
	// delta, or from its run's start.
	listed bool
	// A call not run yet: its name, its content index in the reply
	// while the reply streams (-1 after), and its arguments once the
	// reply ended.
	callName    string
	streamIndex int
	callArgs    []byte
	// calledAt is the agent's timestamp (ms) of the reply that made the
	// call, 0 if unknown: where a run the agent does not time starts.
	calledAt int64
}

// linkToolChips remembers which chat item shows each tool call, so a
// finishing tool can update its chip.
func (s *Session) linkToolChips(i int, content rpcconn.Content) {
	for _, c := range content {
		if c.Type == rpcconn.ContentToolCall {
			s.meta(c.ID).itemIndex = i
		}
	}
}

func (s *Session) meta(id string) *toolMeta {
	m := s.toolMeta[id]
	if m == nil {
		m = &toolMeta{itemIndex: -1, turn: s.turn, streamIndex: -1}
		s.toolMeta[id] = m
	}
	return m
}

func (s *Session) toolStatus(id string) ToolStatus {
	r := s.tools.Get(id)
	switch {
	case r == nil:
		if m := s.toolMeta[id]; m != nil && !m.ended.IsZero() {
			return ToolDone
		}
		return ToolPending
	case r.Done && r.IsError:
		return ToolFailed
	case r.Done:
		return ToolDone
	}
	return ToolRunning
}

func (s *Session) toolEvent(ev rpcconn.Event) {
	r := s.tools.Apply(ev)
	if r == nil {
		return
	}
	m := s.meta(r.ToolCallID)
	first := m.started.IsZero()
	if first {
		m.started = s.now()
		m.turn = s.turn
	}
	s.list(r.ToolCallID, m)
	if r.Done && m.ended.IsZero() {
		s.toolsEnded++
		m.ended = s.now()
		// The agent's own figure, where it gives one: the same as a
		// reload of the session shows.
		if r.DurationMs > 0 {
			m.ended = m.started.Add(time.Duration(r.DurationMs) * time.Millisecond)
		}
	}
	m.rev++
	s.toolsRev++
	if r.Done || first {
		s.refreshChip(r.ToolCallID)
	}
}

// list puts a call's card in the sidebar.
func (s *Session) list(id string, m *toolMeta) {
	if !m.listed {
		m.listed = true
		s.toolOrder = append(s.toolOrder, id)
	}
}

// unlist takes away the card of a call that will not run.
func (s *Session) unlist(id string) {
	m := s.toolMeta[id]
	if m == nil || !m.listed || s.tools.Get(id) != nil {
		return
	}
	m.listed = false
	for i := len(s.toolOrder) - 1; i >= 0; i-- {
		if s.toolOrder[i] == id {
			s.toolOrder = append(s.toolOrder[:i], s.toolOrder[i+1:]...)
			break
		}
	}
	s.toolsRev++
}

// streamedCall follows a tool call the reply streams: its card is listed
// at toolcall_start and changes with each delta, so that an edit shows its
// diff while the model still writes it.
func (s *Session) streamedCall(d *rpcconn.AssistantDelta) {
	var id string
	switch d.Type {
	case rpcconn.DeltaToolCallStart:
		if d.ID == "" {
			return
		}
		id = d.ID
		if s.liveCalls == nil {
			s.liveCalls = map[int]string{}
		}
		s.liveCalls[d.ContentIndex] = id
		m := s.meta(id)
		m.callName, m.streamIndex = d.ToolName, d.ContentIndex
		m.turn = s.turn
		s.list(id, m)
	case rpcconn.DeltaToolCallDelta, rpcconn.DeltaToolCallEnd:
		id = s.liveCalls[d.ContentIndex]
	default:
		return
	}
	m := s.toolMeta[id]
	if m == nil || s.tools.Get(id) != nil {
		return
	}
	if d.Type == rpcconn.DeltaToolCallEnd && d.ToolCall != nil {
		m.callArgs = d.ToolCall.Arguments
		if d.ToolCall.Name != "" {
			m.callName = d.ToolCall.Name
		}
	}
	m.rev++
	s.toolsRev++
}

// endLiveCalls settles the calls of a reply that ended: the message has
// their whole arguments. A reply that failed or was stopped runs none of
// them, so their cards go.
func (s *Session) endLiveCalls(msg *rpcconn.Message, runs bool) {
	for _, id := range s.liveCalls {
		m := s.toolMeta[id]
		if m == nil {
			continue
		}
		m.streamIndex = -1
		m.rev++
		s.toolsRev++
		found := false
		if msg != nil {
			for _, c := range msg.Content {
				if c.Type == rpcconn.ContentToolCall && c.ID == id {
					m.callArgs, found = c.Arguments, true
					m.calledAt = msg.Timestamp
					if c.Name != "" {
						m.callName = c.Name
					}
				}
			}
		}
		if !runs || !found {
			s.unlist(id)
		}
	}
	s.liveCalls = nil
}

// liveToolResult dates a run the agent did not time (pi 0.73.1 gives no
// durationMs) as a reload of the session will: from the call's reply to
// its result, by the agent's timestamps, so the card shows the same figure
// live and reloaded.
func (s *Session) liveToolResult(msg rpcconn.Message) {
	m := s.toolMeta[msg.ToolCallID]
	if m == nil || m.history || m.ended.IsZero() || msg.DurationMs > 0 || msg.Timestamp <= 0 {
		return
	}
	agentTimes(m, m.calledAt, msg)
	m.rev++
	s.toolsRev++
	s.refreshChip(msg.ToolCallID)
}

// agentTimes dates a finished run from the agent's records: its result's
// timestamp ends it; its own durationMs, else the timestamp of the reply
// that made the call, starts it.
func agentTimes(m *toolMeta, calledAt int64, result rpcconn.Message) {
	if result.Timestamp <= 0 {
		return
	}
	m.ended = time.UnixMilli(result.Timestamp)
	m.started = m.ended
	switch {
	case result.DurationMs > 0:
		m.started = m.ended.Add(-time.Duration(result.DurationMs) * time.Millisecond)
	case calledAt > 0 && calledAt <= result.Timestamp:
		m.started = time.UnixMilli(calledAt)
	}
}

// refreshChip gives a tool call's chip in the transcript its run's status.
func (s *Session) refreshChip(id string) {
	m := s.toolMeta[id]
	if m == nil || m.itemIndex < 0 {
		return
	}
	status := s.toolStatus(id)
	s.changeItem(m.itemIndex, func(it *ChatItem) {
		// A fresh slice: the last View handed to the UI still reads the
		// old one.
		blocks := append([]ChatBlock(nil), it.Blocks...)
		for b := range blocks {
			if blocks[b].ToolCallID == id {
				blocks[b].ToolStatus = status
			}
		}
		it.Blocks = blocks
	})
}
