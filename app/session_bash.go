package app

import (
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/widgets"
)

// bashNote tells the user where a !command's output goes: the agent keeps
// it and hands it to the model with the next prompt, not now.
const bashNote = "Output goes to the model with your next prompt"

// BashStart adds a running !command to the transcript and returns its
// handle for BashOutput and BashEnd.
func (s *Session) BashStart(command string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touch()
	i := s.appendItem(widgets.ChatItem{Kind: widgets.ChatBash, Command: command, Streaming: true, Meta: bashNote, Started: s.now()})
	if s.bashRunning == nil {
		s.bashRunning = map[int]bool{}
	}
	s.bashRunning[i] = true
	return i
}

// bashLive reports whether handle i is a !command still running in this
// transcript: after an exit or a session switch its item is gone or done,
// and late output must not land on another entry.
func (s *Session) bashLive(i int) bool { return s.bashRunning[i] }

// TickBash moves the clock of running !commands on: their items change, so
// the chat redraws their elapsed time. The window calls it once a second,
// only while a command runs.
func (s *Session) TickBash() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bashRunning) == 0 {
		return
	}
	s.touch()
	for i := range s.bashRunning {
		s.changeItem(i, func(*widgets.ChatItem) {})
	}
}

// BashOutput appends streamed output of a running !command.
func (s *Session) BashOutput(i int, delta string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.bashLive(i) {
		return
	}
	s.touch()
	s.changeItem(i, func(it *widgets.ChatItem) {
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
func (s *Session) BashEnd(i int, r rpcconn.BashResult, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.bashLive(i) {
		return
	}
	s.touch()
	delete(s.bashRunning, i)
	s.changeItem(i, func(it *widgets.ChatItem) {
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
