package model

import (
	"encoding/json"
	"reflect"
	"slices"

	"knightcode.ai/desktop/rpcconn"
)

// maxNewer is how many messages the agent's answer may have after the
// painted ones (written to the file after the window read it) for the
// paint to be kept and those added after it.
const maxNewer = 64

// keepPaint reconciles the agent's answer (raw, as BeginHistory takes it)
// with a transcript painted from the session's file. When the answer has
// the painted messages — converted, they make the same entries and tool
// runs — the painted entries stay as they are, items and all, so the chat
// does not lay anything out again: what the answer has after them is
// added, and a HistoryLoad for what it has before them is returned, which
// Finish prepends as after BeginHistory. Otherwise (no paint, another
// session, other messages, messages that broke off) it returns nil and the
// answer replaces the paint.
func (s *Session) keepPaint(raw []json.RawMessage, readErr error) *HistoryLoad {
	s.mu.Lock()
	p := s.painted
	ok := p != nil && p.gen == s.histGen && readErr == nil && samePath(p.path, s.sessionFile)
	s.mu.Unlock()
	if !ok || len(p.msgs) == 0 {
		return nil
	}
	n, painted := len(raw), len(p.msgs)
	var problems readProblems
	decoded := map[int]decodedMessage{}
	decode := func(i int) decodedMessage {
		d, ok := decoded[i]
		if !ok {
			d = decodeMessage(raw[i], i, &problems)
			decoded[i] = d
		}
		return d
	}
	last := p.msgs[painted-1]
	for newer := 0; newer <= maxNewer && n-newer-painted >= 0; newer++ {
		split := n - newer - painted
		if d := decode(n - newer - 1); d.err != nil || !sameMessageKey(d.msg, last) {
			continue
		}
		window := make([]decodedMessage, 0, painted+newer)
		for i := split; i < n; i++ {
			window = append(window, decode(i))
		}
		if !s.paintMatches(p, window[:painted]) {
			continue
		}
		if h := s.keptPaint(p, raw, window, split, problems); h != nil {
			return h
		}
		return nil
	}
	return nil
}

// sameMessageKey is a cheap first test that two messages are the same.
func sameMessageKey(a, b rpcconn.Message) bool {
	return a.Role == b.Role && a.Timestamp == b.Timestamp && a.Content.Text() == b.Content.Text()
}

// paintMatches reports whether msgs, converted on their own as the paint
// was, make the transcript and tool runs the session shows.
func (s *Session) paintMatches(p *paintMark, msgs []decodedMessage) bool {
	conv := &Session{now: s.now, liveIndex: -1, toolMeta: map[string]*toolMeta{}}
	conv.convertHistory(msgs, 0, len(msgs), toolResults(msgs, nil))
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.painted == p && showsSameHistory(conv, s)
}

// showsSameHistory compares what two sessions show of their histories,
// their entries' IDs and revisions aside.
func showsSameHistory(a, b *Session) bool {
	if len(a.items) != len(b.items) || !slices.Equal(a.toolOrder, b.toolOrder) || !reflect.DeepEqual(a.systemPrompt, b.systemPrompt) || a.turn != b.turn {
		return false
	}
	for i := range a.items {
		x, y := a.items[i], b.items[i]
		x.ID, x.Revision, y.ID, y.Revision = "", 0, "", 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	for _, id := range a.toolOrder {
		ma, mb := a.toolMeta[id], b.toolMeta[id]
		if ma == nil || mb == nil || !ma.started.Equal(mb.started) || !ma.ended.Equal(mb.ended) ||
			ma.turn != mb.turn || ma.itemIndex != mb.itemIndex || !reflect.DeepEqual(a.tools.Get(id), b.tools.Get(id)) {
			return false
		}
	}
	return true
}

// keptPaint turns the painted transcript into the agent's: window are the
// answer's messages from split on, the painted ones first. It returns nil
// when the paint was replaced meanwhile.
func (s *Session) keptPaint(p *paintMark, raw []json.RawMessage, window []decodedMessage, split int, problems readProblems) *HistoryLoad {
	h := &HistoryLoad{s: s, raw: raw, split: split, problems: problems}
	h.tailResults = toolResults(window, nil)
	for _, d := range window {
		if d.err != nil || d.msg.Role != rpcconn.RoleAssistant {
			continue
		}
		for _, c := range d.msg.Content {
			if c.Type == rpcconn.ContentToolCall && h.tailResults[c.ID] == nil {
				h.open = append(h.open, openCall{c.ID, d.msg.Timestamp})
			}
		}
	}
	painted := len(p.msgs)

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.painted != p || p.gen != s.histGen {
		return nil
	}
	s.painted = nil
	s.paintEpoch++
	// The painted entries keep their IDs; the answer's others get IDs of
	// their own, after every one handed out: base+1+index, as ever.
	h.base = s.nextID
	s.nextID += len(raw) + 1
	h.gen = s.histGen
	if first := firstPromptIn(raw[:split]); first != s.firstPrompt {
		s.firstPrompt = first
		s.touch()
	}
	pending, offset := split > 0, 0
	if k, ok := countTurns(raw[:split]); ok && pending {
		pending, offset = false, k
	}
	if pending != s.turnsPending || offset != s.turnOffset {
		// The turns before the painted ones are known: the cards number
		// theirs.
		s.turnsPending, s.turnOffset = pending, offset
		for _, m := range s.toolMeta {
			m.rev++
		}
		s.toolsRev++
		s.touch()
	}
	// A painted call whose result came after the file was read.
	for _, d := range window[:painted] {
		if d.msg.Role != rpcconn.RoleAssistant {
			continue
		}
		for _, c := range d.msg.Content {
			if c.Type != rpcconn.ContentToolCall {
				continue
			}
			if run, r := s.tools.Get(c.ID), h.tailResults[c.ID]; run != nil && r != nil && !run.Done {
				s.historyResult(c.ID, d.msg.Timestamp, r)
				s.toolsRev++
				s.refreshChip(c.ID)
				s.touch()
			}
		}
	}
	if newer := window[painted:]; len(newer) > 0 {
		s.convertHistory(newer, h.base, len(raw), h.tailResults)
		s.toolsRev++
		s.touch()
	}
	return h
}
