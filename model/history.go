package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// A stored session's transcript (get_messages) is loaded in two steps, so
// that opening 12,000 messages (~50 MB of JSON) paints its last screen
// first, before anything off screen is decoded:
//
//  1. BeginHistory decodes messages from the end until they make a screen
//     (firstScreenEntries entries or firstScreenBytes of JSON), converts
//     them and puts them in as the whole transcript, to be drawn at once.
//  2. HistoryLoad.Finish, called once that is painted, decodes and converts
//     the older messages and their tool cards off the UI goroutine and
//     outside the session's lock, then prepends them under it in one step:
//     what the window showed becomes the end of the new transcript.
//
// Either way the transcript is the same as converting everything at once:
// item i's ID comes from its message's index, not from conversion order,
// and a tool result converts with its call wherever the split fell.
const (
	// The smallest entry (a notice) is 53 px tall: 40 of them fill a
	// 2,100 px transcript. A screen of huge messages is bounded by size.
	firstScreenEntries = 40
	firstScreenBytes   = 4 << 20
)

// HistoryLoad is a transcript shown in part (BeginHistory) until Finish.
type HistoryLoad struct {
	s   *Session
	gen uint64
	// raw are the answer's messages; raw[split:] are shown.
	raw   []json.RawMessage
	split int
	base  int
	// tailResults are the shown messages' tool results, for the calls
	// before the split; open are the shown calls without a result there.
	tailResults map[string]*rpcconn.Message
	open        []openCall
	problems    readProblems
}

type openCall struct {
	id       string
	calledAt int64
}

// decodedMessage is one message of the answer and its index there; err is
// set when it could not be read at all.
type decodedMessage struct {
	index int
	msg   rpcconn.Message
	err   error
}

// readProblems counts the messages that could not be read (wholly or in
// part) and describes the earliest.
type readProblems struct {
	skipped, partial int
	first            string
	firstIndex       int
}

func (p *readProblems) note(d *decodedMessage, err error, skipped bool) {
	if skipped {
		p.skipped++
	} else {
		p.partial++
	}
	if p.first == "" || d.index < p.firstIndex {
		p.first, p.firstIndex = fmt.Sprintf("message %d: %v", d.index+1, err), d.index
	}
}

// decodeMessage decodes raw, the answer's message index. A message with a
// field of an unexpected type (a newer agent's) keeps what did decode; one
// that is no message at all is marked to be left out.
func decodeMessage(raw json.RawMessage, index int, p *readProblems) decodedMessage {
	d := decodedMessage{index: index}
	m, err := rpcconn.DecodeMessage(raw)
	if err == nil {
		d.msg = m
		return d
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && m.Role != "" {
		d.msg = m
		p.note(&d, err, false)
		return d
	}
	d.err = err
	p.note(&d, err, true)
	return d
}

// shows reports whether a message makes a transcript entry (tool results
// show in their calls' chips and cards).
func shows(d *decodedMessage) bool {
	if d.err != nil {
		return true
	}
	switch d.msg.Role {
	case rpcconn.RoleUser, rpcconn.RoleAssistant, rpcconn.RoleBashExecution, rpcconn.RoleBranchSummary, rpcconn.RoleCompactionSummary:
		return true
	case rpcconn.RoleCustom:
		return d.msg.Display
	}
	return false
}

func toolResults(msgs []decodedMessage, into map[string]*rpcconn.Message) map[string]*rpcconn.Message {
	if into == nil {
		into = map[string]*rpcconn.Message{}
	}
	for i := range msgs {
		if m := &msgs[i].msg; msgs[i].err == nil && m.Role == rpcconn.RoleToolResult {
			into[m.ToolCallID] = m
		}
	}
	return into
}

// BeginHistory replaces the transcript and tool cards with the last screen
// of a session's stored messages (raw, as GetMessagesRaw cut them); Finish
// adds the rest. readErr is why the messages broke off early, if they did.
func (s *Session) BeginHistory(raw []json.RawMessage, readErr error) *HistoryLoad {
	return s.beginHistory(raw, readErr, firstScreenEntries, firstScreenBytes)
}

func (s *Session) beginHistory(raw []json.RawMessage, readErr error, entries, size int) *HistoryLoad {
	if h := s.keepPaint(raw, readErr); h != nil {
		return h
	}
	h := &HistoryLoad{s: s, raw: raw, split: len(raw)}
	var tail []decodedMessage
	for shown, bytes := 0, 0; h.split > 0 && shown < entries && bytes < size; {
		h.split--
		tail = append(tail, decodeMessage(raw[h.split], h.split, &h.problems))
		bytes += len(raw[h.split])
		if shows(&tail[len(tail)-1]) {
			shown++
		}
	}
	slices.Reverse(tail)
	h.tailResults = toolResults(tail, nil)
	for _, d := range tail {
		if d.err != nil || d.msg.Role != rpcconn.RoleAssistant {
			continue
		}
		for _, c := range d.msg.Content {
			if c.Type == rpcconn.ContentToolCall && h.tailResults[c.ID] == nil {
				h.open = append(h.open, openCall{c.ID, d.msg.Timestamp})
			}
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	h.base = s.resetHistory(len(raw), len(tail))
	h.gen = s.histGen
	s.turnsPending = h.split > 0
	if k, ok := countTurns(raw[:h.split]); ok && h.split > 0 {
		s.turnsPending, s.turnOffset = false, k
	}
	s.firstPrompt = firstPromptIn(raw[:h.split])
	s.convertHistory(tail, h.base, len(raw), h.tailResults)
	if readErr != nil {
		s.notice(NoticeError, fmt.Sprintf("The session's messages break off after message %d; the rest could not be read: %v", len(raw), readErr))
	}
	return h
}

// Finish decodes and converts the messages BeginHistory left out and puts
// them before the transcript, unless another history replaced it
// meanwhile. It is slow on a long session (a second for 12,000 messages):
// call it off the UI goroutine; the session stays usable throughout. When
// ctx ends first, the older messages stay out.
func (h *HistoryLoad) Finish(ctx context.Context) {
	s := h.s
	older := make([]decodedMessage, h.split)
	for i := range older {
		if i%256 == 0 && ctx.Err() != nil {
			return
		}
		older[i] = decodeMessage(h.raw[i], i, &h.problems)
	}
	// Later results win, as in one pass. The shown calls' results are all
	// in the tail, unless one was stored before its call, across the
	// split (no sane agent does that): then it is in results too.
	results := toolResults(older, nil)
	for id, r := range h.tailResults {
		results[id] = r
	}

	// The older part is converted as a session of its own, so that it
	// shares every line of conversion with the live transcript.
	part := &Session{now: s.now, liveIndex: -1, toolMeta: map[string]*toolMeta{}}
	if h.problems.skipped > 0 || h.problems.partial > 0 {
		part.nextID = h.base
		part.appendItem(ChatItem{Kind: ChatNotice, Level: NoticeWarning, Text: Plain(h.problems.summary(len(h.raw)))})
	}
	part.convertHistory(older, h.base, len(h.raw), results)
	part.cards() // tool cards are converted here too, not on the UI goroutine

	s.mu.Lock()
	defer s.mu.Unlock()
	h.raw, h.tailResults = nil, nil
	if s.histGen != h.gen {
		return
	}
	if len(part.items) > 0 || len(part.toolOrder) > 0 {
		s.prependHistory(part)
	}
	for _, oc := range h.open {
		if r := results[oc.id]; r != nil {
			s.historyResult(oc.id, oc.calledAt, r)
			s.toolsRev++
			s.refreshChip(oc.id)
		}
	}
	s.endUnanswered()
}

func (p readProblems) summary(total int) string {
	text := "Parts of this session could not be read"
	switch {
	case p.skipped > 0 && p.partial > 0:
		text += fmt.Sprintf(": %d of its %d messages are left out (marked where they were) and %d were read only in part", p.skipped, total, p.partial)
	case p.skipped > 0:
		text += fmt.Sprintf(": %d of its %d messages are left out (marked where they were)", p.skipped, total)
	default:
		text += fmt.Sprintf(": %d of its %d messages were read only in part", p.partial, total)
	}
	return text + ". First problem: " + p.first + "."
}

// decodedFrom wraps messages read already (from a session file) as
// convertHistory takes them, with their tool results.
func decodedFrom(msgs []rpcconn.Message) ([]decodedMessage, map[string]*rpcconn.Message) {
	d := make([]decodedMessage, len(msgs))
	for i := range msgs {
		d[i] = decodedMessage{index: i, msg: msgs[i]}
	}
	return d, toolResults(d, nil)
}

// LoadHistory replaces the transcript and tool cards with a session's
// stored messages in one step.
func (s *Session) LoadHistory(msgs []rpcconn.Message) {
	d, results := decodedFrom(msgs)
	s.mu.Lock()
	defer s.mu.Unlock()
	base := s.resetHistory(len(msgs), len(msgs))
	s.convertHistory(d, base, len(msgs), results)
	s.endUnanswered()
}

// noResultNote is the output of a stored call that has no stored result.
const noResultNote = "No result was recorded: the session ended before this call finished."

// endUnanswered ends the stored calls that have no stored result. The
// agent, started afresh, is not running them: shown as running they would
// look alive for ever, and their timers would tick for ever.
func (s *Session) endUnanswered() {
	for _, id := range s.toolOrder {
		m, r := s.toolMeta[id], s.tools.Get(id)
		if m == nil || r == nil || !m.history || r.Done {
			continue
		}
		s.tools.Apply(&rpcconn.ToolExecutionEnd{ToolCallID: id, ToolName: r.ToolName, IsError: true,
			Result: rpcconn.ToolResult{Content: rpcconn.Content{{Type: rpcconn.ContentText, Text: noResultNote}}}})
		if m.started.IsZero() {
			m.started = s.now()
		}
		m.ended = m.started
		m.rev++
		s.toolsRev++
		s.refreshChip(id)
	}
}

// resetHistory empties the transcript and tool runs for a history of n
// messages, and reserves item IDs for them: base+1 for a notice before
// them, base+2+i for message i. Live entries get IDs after those.
func (s *Session) resetHistory(n, capacity int) (base int) {
	s.items = make([]ChatItem, 0, capacity)
	s.systemPrompt = nil // the new history brings its own
	s.liveIndex = -1
	s.live = rpcconn.MessageBuilder{}
	s.tools = rpcconn.ToolTracker{}
	s.toolMeta = map[string]*toolMeta{}
	s.toolOrder = nil
	s.liveCalls = nil
	s.turn = 0
	s.turnOffset = 0
	s.turnsPending = false
	s.histGen++
	s.prepended = 0
	s.painted = nil
	s.paintEpoch++
	s.firstPrompt = ""
	// A !command still running belongs to the transcript being replaced.
	s.bashRunning = nil
	s.toolsRev++
	s.chatRev++
	s.touch()
	base = s.nextID
	s.nextID += n + 1
	return base
}

// convertHistory appends the entries and tool runs of stored messages (of
// a history of total messages whose IDs start at base) to the transcript.
// results are the tool results by call id. A run of messages that could
// not be read becomes one notice in their place.
func (s *Session) convertHistory(msgs []decodedMessage, base, total int, results map[string]*rpcconn.Message) {
	defer func(next int) { s.nextID = next }(s.nextID)
	for k := 0; k < len(msgs); k++ {
		d := &msgs[k]
		s.nextID = base + 1 + d.index
		if d.err != nil {
			j := k
			for j+1 < len(msgs) && msgs[j+1].err != nil && msgs[j+1].index == msgs[j].index+1 {
				j++
			}
			s.appendItem(ChatItem{Kind: ChatNotice, Level: NoticeWarning, Text: Plain(skippedText(msgs[k:j+1], total))})
			k = j
			continue
		}
		m := d.msg
		switch m.Role {
		case rpcconn.RoleAssistant:
			s.turn++
			i := s.appendItem(ChatItem{Kind: ChatAssistant})
			for _, c := range m.Content {
				if c.Type == rpcconn.ContentToolCall {
					s.historyTool(c, m.Timestamp, results[c.ID])
				}
			}
			s.finishAssistant(i, m)
		case rpcconn.RoleToolResult:
		case rpcconn.RoleSystem:
			s.systemPrompt = m.Sections
		default:
			if it, ok := s.historyItem(m); ok {
				s.appendItem(it)
			}
		}
	}
}

func skippedText(run []decodedMessage, total int) string {
	first, last := run[0].index+1, run[len(run)-1].index+1
	if first == last {
		return fmt.Sprintf("Message %d of %d could not be read and is left out: %v", first, total, run[0].err)
	}
	return fmt.Sprintf("Messages %d to %d of %d could not be read and are left out: %v", first, last, total, run[0].err)
}

// prependHistory puts p, older history converted on its own, before the
// transcript and tool runs, which started counting turns and items from
// zero when BeginHistory reset them.
func (s *Session) prependHistory(p *Session) {
	if s.systemPrompt == nil {
		s.systemPrompt = p.systemPrompt
	}
	n := len(p.items)
	s.items = append(p.items, s.items...)
	s.prepended += n
	if s.liveIndex >= 0 {
		s.liveIndex += n
	}
	for _, m := range s.toolMeta {
		if m.itemIndex >= 0 {
			m.itemIndex += n
		}
		// Their turns are known now: the cards are converted again.
		m.turn += p.turn
		m.rev++
	}
	for id, m := range p.toolMeta {
		if s.toolMeta[id] == nil {
			s.toolMeta[id] = m
		}
	}
	s.toolOrder = append(p.toolOrder, s.toolOrder...)
	s.tools.Prepend(&p.tools)
	s.turn += p.turn
	s.turnOffset = 0
	s.turnsPending = false
	s.firstPrompt = ""
	s.chatRev++
	s.toolsRev++
	s.touch()
}

// historyItem converts a stored message of a role other than assistant and
// toolResult into a transcript entry.
func (s *Session) historyItem(m rpcconn.Message) (ChatItem, bool) {
	switch m.Role {
	case rpcconn.RoleUser:
		it := ChatItem{Kind: ChatUser, Text: m.Content.Text(), Images: thumbnails(m.Content), Meta: messageMeta(m)}
		if m.Timestamp > 0 {
			it.Sent = time.UnixMilli(m.Timestamp)
		}
		return it, true
	case rpcconn.RoleBashExecution:
		return ChatItem{Kind: ChatBash, Command: m.Command, Text: m.Output, ExitCode: m.ExitCode,
			Cancelled: m.Cancelled, Truncated: m.Truncated, FullOutputPath: m.FullOutputPath, Meta: messageMeta(m)}, true
	case rpcconn.RoleCustom:
		if !m.Display {
			return ChatItem{}, false
		}
		return ChatItem{Kind: ChatCustom, Text: m.Content.Text(), Meta: m.CustomType}, true
	case rpcconn.RoleBranchSummary:
		return ChatItem{Kind: ChatBranchSummary, Text: m.Summary, Meta: "Summary of another branch"}, true
	case rpcconn.RoleCompactionSummary:
		return ChatItem{Kind: ChatCompaction, Text: m.Summary,
			Meta: "Compacted: " + formatTokens(m.TokensBefore) + " tokens summarised"}, true
	}
	return ChatItem{}, false
}

// historyTool recreates a finished tool run from a stored call and result.
func (s *Session) historyTool(call rpcconn.ContentBlock, calledAt int64, result *rpcconn.Message) {
	s.tools.Apply(&rpcconn.ToolExecutionStart{ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments})
	m := s.meta(call.ID)
	m.turn = s.turn
	m.history = true
	s.list(call.ID, m)
	if result != nil {
		s.historyResult(call.ID, calledAt, result)
	}
}

// historyResult ends a history tool run with its stored result. The reply
// that made the call dates its start, the result its end.
func (s *Session) historyResult(id string, calledAt int64, result *rpcconn.Message) {
	r := s.tools.Get(id)
	if r == nil {
		return
	}
	s.tools.Apply(&rpcconn.ToolExecutionEnd{ToolCallID: id, ToolName: r.ToolName,
		Result: rpcconn.ToolResult{Content: result.Content, Details: result.Details}, IsError: result.IsError, DurationMs: result.DurationMs})
	m := s.meta(id)
	// As the live card was dated (liveToolResult, toolEvent).
	agentTimes(m, calledAt, *result)
	m.rev++
}
