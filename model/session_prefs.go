package model

import "knightcode.ai/desktop/rpcconn"

// AgentModes are the agent's run settings the window lets the user toggle.
type AgentModes struct {
	AutoCompaction bool
	AutoRetry      bool
	SteeringMode   string
	FollowUpMode   string
}

// Modes returns the agent's run settings as last known.
func (s *Session) Modes() AgentModes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modes
}

// SetModes records run settings after the user changed one.
func (s *Session) SetModes(m AgentModes) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modes = m
	s.touch()
}

func (s *Session) takeModes(st rpcconn.SessionState) {
	s.modes.AutoCompaction = st.AutoCompactionEnabled
	s.modes.SteeringMode = st.SteeringMode
	s.modes.FollowUpMode = st.FollowUpMode
}
