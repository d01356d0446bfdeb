package model

import (
	"knightcode.ai/desktop/rpcconn"
)

// bashNote tells the user where a !command's output goes: the agent keeps
// it and hands it to the model with the next prompt, not now.
const bashNote = "Output goes to the model with your next prompt"

// BashHandle names a !command's transcript entry. It stays right while
// older history is put before the entry, and names nothing once another
// history replaced the transcript.
type BashHandle struct {
	gen uint64
	pos int
}

func (s *Session) bashIndex(h BashHandle) int {
	if h.gen != s.histGen {
		return -1
	}
	return h.pos + s.prepended
}

// BashStart adds a running !command to the transcript and returns its
// handle for BashOutput and BashEnd.
func (s *Session) BashStart(command string) BashHandle {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touch()
	i := s.appendItem(ChatItem{Kind: ChatBash, Command: command, Streaming: true, Meta: bashNote, Started: s.now()})
	h := BashHandle{s.histGen, i - s.prepended}
	if s.bashRunning == nil {
		s.bashRunning = map[BashHandle]bool{}
	}
	s.bashRunning[h] = true
	return h
}

// BashRunning reports whether a !command runs.
func (s *Session) BashRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bashRunning) > 0
}

// bashLive reports whether h is a !command still running in this
// transcript: after an exit or a session switch its entry is gone or done,
// and late output must not land on it or another entry.
func (s *Session) bashLive(h BashHandle) bool { return s.bashRunning[h] && s.bashIndex(h) >= 0 }

// TickBash moves the clock of running !commands on: their entries change,
// so the chat redraws their elapsed time. The window calls it once a
// second, only while a command runs.
func (s *Session) TickBash() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bashRunning) == 0 {
		return
	}
	s.touch()
	for h := range s.bashRunning {
		s.changeItem(s.bashIndex(h), func(*ChatItem) {})
	}
}

// BashOutput appends streamed output of a running !command.
func (s *Session) BashOutput(h BashHandle, delta string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.bashLive(h) {
		return
	}
	s.touch()
	s.changeItem(s.bashIndex(h), func(it *ChatItem) {
		it.Text += delta
		if over := len(it.Text) - toolOutputCap; over > 0 {
			// The agent keeps the whole output; the window keeps the tail.
			it.Text = it.Text[over:]
			it.Truncated = true
		}
	})
}

// BashEnd records how a !command ended. Agents that do not stream bash
// output (pi 0.73) only deliver it here.
func (s *Session) BashEnd(h BashHandle, r rpcconn.BashResult, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.bashLive(h) {
		return
	}
	s.touch()
	delete(s.bashRunning, h)
	s.changeItem(s.bashIndex(h), func(it *ChatItem) {
		it.Streaming = false
		if it.Ended.IsZero() {
			it.Ended = s.now()
		}
		if err != nil {
			it.Text += "\n" + err.Error()
			it.Meta = "Failed"
			it.ExitCode = nil
			return
		}
		if it.Text == "" || len(r.Output) > len(it.Text) && !r.Truncated {
			it.Text = r.Output
		}
		it.ExitCode = r.ExitCode
		it.Cancelled = r.Cancelled
		it.Truncated = r.Truncated
		it.FullOutputPath = r.FullOutputPath
	})
}
