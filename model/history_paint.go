package model

import (
	"encoding/json"
	"path/filepath"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

// A session opened from its file (--session, the browser, a reopened tab)
// is painted from the file's end before the agent answers get_messages:
// the window reads the last screen itself, in milliseconds, where the agent
// may take seconds over a long session. When the answer comes it is
// reconciled with what is shown (history_reconcile.go): the same entries
// stay as they are, so nothing on screen moves.

// paintMark says the transcript shown was painted from a file.
type paintMark struct {
	path string
	// msgs are the messages painted, as read from the file.
	msgs []rpcconn.Message
	// gen is the history the paint made (histGen); anything that replaced
	// it since ends the mark.
	gen uint64
}

// PaintTail is what a paint reads of a session file's end: the messages
// that make the first screen, as BeginHistory counts them.
func PaintTail() sessionfiles.Tail {
	return sessionfiles.Tail{
		Messages: firstScreenEntries,
		Counts: func(m rpcconn.Message) bool {
			d := decodedMessage{msg: m}
			return shows(&d)
		},
	}
}

// PaintToken is taken before a session file is read for PaintHistory: a
// paint is dropped when a history was loaded, or the paint cancelled,
// since.
func (s *Session) PaintToken() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paintEpoch
}

// CancelPaint drops a paint asked for and not done yet, and reports
// whether one from path is shown (the agent did not open that session
// after all: its own transcript should be loaded again).
func (s *Session) CancelPaint(path string) (shown bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paintEpoch++
	return s.painted != nil && s.painted.gen == s.histGen && s.painted.path == path
}

// PaintHistory shows msgs, the last messages of the session file at path
// (sessionfiles.ReadTranscriptTail), as the transcript, converted as
// BeginHistory converts the agent's answer; older history is marked as
// still to come. It does nothing and returns false when the token is stale:
// the agent answered first, or the paint was cancelled.
// firstPrompt is the file's first prompt (sessionfiles.FirstPrompt), the
// session's title until the rest is shown. turnsBefore is how many turns
// come before msgs (sessionfiles.CountReplies), negative when not known:
// the cards then number their turns once the agent has answered.
func (s *Session) PaintHistory(path string, msgs []rpcconn.Message, firstPrompt string, turnsBefore int, token uint64) bool {
	d, results := decodedFrom(msgs)
	s.mu.Lock()
	defer s.mu.Unlock()
	if token != s.paintEpoch {
		return false
	}
	base := s.resetHistory(len(msgs), len(msgs))
	s.convertHistory(d, base, len(msgs), results)
	// Without the count of what came before, turn numbers wait, as they
	// do while BeginHistory's older part is converted.
	s.turnsPending, s.turnOffset = turnsBefore < 0, max(turnsBefore, 0)
	s.firstPrompt = firstPrompt
	s.painted = &paintMark{path: path, msgs: msgs, gen: s.histGen}
	return true
}

// PaintedFrom is the file the transcript shown was painted from, while no
// answer of the agent replaced or confirmed it; "" otherwise.
func (s *Session) PaintedFrom() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.painted == nil || s.painted.gen != s.histGen {
		return ""
	}
	return s.painted.path
}

// samePath reports whether two names are the same session file. Names
// are compared as they are, the session making no I/O: the controller
// paints from an absolute path, as the agent names its file; a file named
// through a link is replaced rather than kept.
func samePath(a, b string) bool {
	return a != "" && b != "" && filepath.Clean(a) == filepath.Clean(b)
}

// firstPromptSearch bounds how many messages firstPromptIn decodes.
const firstPromptSearch = 64

// firstPromptIn is the text of the first user prompt among the first
// messages of raw (a history's part not shown yet), "" when there is none.
func firstPromptIn(raw []json.RawMessage) string {
	var p readProblems
	for i := range min(len(raw), firstPromptSearch) {
		if d := decodeMessage(raw[i], i, &p); d.err == nil && d.msg.Role == rpcconn.RoleUser {
			return d.msg.Content.Text()
		}
	}
	return ""
}

// turnsBeforePaint is how many turns come before msgs, the end of a file
// with replies replies in all (sessionfiles.CountReplies), or -1 when the
// count cannot be trusted.
func turnsBeforePaint(msgs []rpcconn.Message, replies int, linear bool) int {
	if !linear {
		return -1
	}
	for _, m := range msgs {
		if m.Role == rpcconn.RoleAssistant {
			replies--
		}
	}
	if replies < 0 {
		return -1
	}
	return replies
}
