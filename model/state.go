package model

import (
	"slices"

	"knightcode.ai/desktop/rpcconn"
)

// SetConn records the connection state and a detail for the status bar.
func (s *Session) SetConn(state ConnState, detail string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != state {
		s.BannerSeq++
	}
	s.conn, s.connDetail = state, detail
	if state == ConnReady || state == ConnStarting {
		s.exit = nil
		s.slowStart, s.startDetail = false, ""
	}
	s.touch()
}

// SetAgentSendsSettled records whether runs end with agent_settled.
func (s *Session) SetAgentSendsSettled(yes bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.agentSendsSettled = yes
}

// SetAgentName records what to call the agent in messages: "pi",
// "KnightCode".
func (s *Session) SetAgentName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.agentName = name
	s.touch()
}

// AgentName is what to call the agent in messages.
func (s *Session) AgentName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agentName == "" {
		return "the agent"
	}
	return s.agentName
}

// SetState takes what get_state reported.
func (s *Session) SetState(st rpcconn.SessionState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.model = st.Model
	s.thinking = st.ThinkingLevel
	s.sessionName = st.SessionName
	s.sessionFile = st.SessionFile
	s.takeModes(st)
	s.touch()
}

// SetModel records the current model after set_model or cycle_model.
func (s *Session) SetModel(m *rpcconn.Model, thinking string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.model = m
	if thinking != "" {
		s.thinking = thinking
	}
	s.touch()
}

// SetThinking records the current thinking level.
func (s *Session) SetThinking(level string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.thinking = level
	s.touch()
}

// SetModels records the models the agent offers.
func (s *Session) SetModels(models []rpcconn.Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = models
	s.touch()
}

// SetLevels records the thinking levels of the current model.
func (s *Session) SetLevels(levels []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.levels = levels
	s.touch()
}

// DropLevel stops offering a level the current model did not take; the
// next model's levels come fresh from the agent.
func (s *Session) DropLevel(level string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.levels = slices.DeleteFunc(slices.Clone(s.levels), func(l string) bool { return l == level })
	s.touch()
}

// SetStats records session statistics.
func (s *Session) SetStats(st rpcconn.SessionStats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = &st
	s.touch()
}

// SetSessionName records a new session name.
func (s *Session) SetSessionName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessionName = name
	s.touch()
}

// Model is the current model, or nil.
func (s *Session) Model() *rpcconn.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// Running reports whether the agent is working on a run.
func (s *Session) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run.Running()
}

// SessionFile is the agent's current session file, if it keeps one.
func (s *Session) SessionFile() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionFile
}

// SystemPrompt is the agent's system prompt in parts, when the agent has
// sent it (pi 1.6 does with a session's first turn and in get_messages).
func (s *Session) SystemPrompt() rpcconn.Sections {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.systemPrompt
}

// setCapturing says whether a panel reads the notifications of a command it
// runs, which then stay out of the transcript.
func (s *Session) setCapturing(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capturing = on
}

// HasConversation reports whether the transcript holds a prompt, a reply
// or a command's run: something an agent would remember (notices, such as
// an extension's at start, are not).
func (s *Session) HasConversation() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range s.items {
		switch {
		case it.Waiting:
			// Not taken by an agent yet: the next one gets it.
		case it.Kind == ChatUser, it.Kind == ChatAssistant, it.Kind == ChatBash:
			return true
		}
	}
	return false
}

// Models are the models the agent offers.
func (s *Session) Models() []rpcconn.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.models
}

// Levels are the thinking levels of the current model.
func (s *Session) Levels() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.levels
}

// Thinking is the current thinking level.
func (s *Session) Thinking() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.thinking
}
