package model

import (
	"fmt"
	"slices"

	"knightcode.ai/desktop/rpcconn"
)

// What the queue strip says about the messages in it, when they are not
// simply waiting for the running agent to take them.
const (
	NoteWaitingStart = "Waiting for the agent to start: sent when it is ready · Esc takes them back"
	noteWaitingReady = "Waiting for the agent: sent in a moment"
	NoteQueueStays   = "Still queued in the agent, which cannot give them back: they go to the model with your next prompt"
	noteQueueNext    = "Queued for your next prompt · Esc takes them back into the editor"
)

// SetCapabilities records what the agent is known to support: whether runs
// end with agent_settled, and whether queued messages can be taken back.
func (s *Session) SetCapabilities(caps rpcconn.Capabilities) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keeps := !canTakeBackQueue(caps)
	if s.agentSendsSettled != caps.SettledEvent || s.queueStays != keeps {
		s.touch()
	}
	s.agentSendsSettled = caps.SettledEvent
	s.queueStays = keeps
}

// canTakeBackQueue reports whether clear_queue can be expected to work.
// It arrived in the protocol generation of agent_settled: an agent known to
// be older (pi 0.73.1) lacks it before it ever answered "Unknown command".
func canTakeBackQueue(caps rpcconn.Capabilities) bool {
	return caps.Supports("clear_queue") && !(caps.Probed && !caps.SettledEvent)
}

// QueueStays reports whether the agent is known to keep queued messages
// it cannot give back.
func (s *Session) QueueStays() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queueStays
}

// SetWaiting records the prompts held until the agent can take them.
func (s *Session) SetWaiting(texts []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting = append([]string(nil), texts...)
	s.touch()
}

// Queue returns the agent's queued steering and follow-up messages.
func (s *Session) Queue() (steering, followUp []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.steering...), append([]string(nil), s.followUp...)
}

// queueNote says what becomes of the messages in the strip, or "" when
// they simply wait for the running agent.
func (s *Session) queueNote() string {
	queued := len(s.steering) + len(s.followUp)
	switch {
	case len(s.waiting) > 0 && s.conn == ConnReady:
		return noteWaitingReady
	case len(s.waiting) > 0:
		return NoteWaitingStart
	case queued == 0 || s.run.Running():
		return ""
	case s.queueStays:
		return NoteQueueStays
	}
	return noteQueueNext
}

// QueueStaysNotice tells the user that n queued messages could not be taken
// back and will go out with the next prompt.
func QueueStaysNotice(n int, agent string) string {
	if n == 1 {
		return fmt.Sprintf("1 queued message stays with %s: this agent cannot take queued messages back. It goes to the model with your next prompt.", agent)
	}
	return fmt.Sprintf("%d queued messages stay with %s: this agent cannot take queued messages back. They go to the model with your next prompt.", n, agent)
}

// takeQueueBack empties the queue of an agent that ended and returns its
// texts, steering first. A follow-up the transcript shows as a waiting
// prompt goes back with the queue: its waiting item goes too, so the text
// is given back once and shown nowhere else.
func (s *Session) takeQueueBack() []string {
	texts := append(append([]string(nil), s.steering...), s.followUp...)
	for _, f := range s.followUp {
		i := slices.IndexFunc(s.items, func(it ChatItem) bool { return it.Waiting && it.Text == f })
		if i >= 0 {
			s.items = slices.Delete(s.items, i, i+1)
			s.chatRev++
		}
	}
	s.steering, s.followUp = nil, nil
	s.updateNotReading()
	return texts
}

// GiveBackNotice tells the user that n texts the agent will never take are
// back in the editor.
func GiveBackNotice(n int, agent string) string {
	if n == 1 {
		return fmt.Sprintf("%s stopped: 1 message it had not taken is back in the editor.", agent)
	}
	return fmt.Sprintf("%s stopped: %d messages it had not taken are back in the editor.", agent, n)
}
