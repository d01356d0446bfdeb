package model

import (
	"strings"
)

// BannerState is what the banner above the chat says about the agent
// process: it could not start, it does not answer, it crashed, it ended the
// session. Every banner offers Restart.
type BannerState struct {
	// Seq changes whenever the banner is set anew, even to the same words,
	// so a banner hidden by Restart comes back if the restart fails alike.
	Seq    uint64
	Title  string
	Detail string
	Level  NoticeLevel
}

// slowStartDetail explains a start that takes long when the agent wrote
// nothing to stderr that would.
const slowStartDetail = "It has not answered for a while. It may still be loading (a long session takes longer), or it may be stuck: Restart starts it again. What you send meanwhile waits for it."

// SetSlowStart records that the agent has not answered its first command
// yet, with the end of its stderr.
func (s *Session) SetSlowStart(stderrTail string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != ConnStarting {
		return
	}
	s.slowStart, s.startDetail = true, strings.TrimRight(stderrTail, "\n")
	s.BannerSeq++
	s.touch()
}

// SetStartFailed records why the agent could not be started.
func (s *Session) SetStartFailed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conn, s.connDetail = ConnFailed, ""
	s.slowStart = false
	s.startDetail = err.Error()
	s.BannerSeq++
	s.touch()
}

// banner is what the banner says now, or nil.
func (s *Session) banner() *BannerState {
	name := s.agentName
	if name == "" {
		name = "The agent"
	}
	b := &BannerState{Seq: s.BannerSeq, Level: NoticeError}
	switch s.conn {
	case ConnFailed:
		b.Title, b.Detail = name+" could not be started", s.startDetail
	case ConnStarting:
		if !s.slowStart {
			return nil
		}
		b.Title, b.Level = name+" is not answering — still waiting for it", NoticeWarning
		b.Detail = s.startDetail
		if b.Detail == "" {
			b.Detail = slowStartDetail
		}
	case ConnReady:
		if !s.notReading {
			return nil
		}
		b.Title, b.Level = name+" is not reading its input", NoticeWarning
		// Short: the banner shows its detail on one line.
		b.Detail = "Sent over 10 s ago, not taken. Restart sends each again once; Back to editor takes it back."
	case ConnExited:
		e := s.exit
		switch {
		case e == nil || e.Expected:
			return nil
		case e.EndedByItself():
			// An extension can ask the agent to shut down: it finishes
			// the run and exits 0. That is no crash.
			b.Title, b.Level = name+" ended the session by itself", NoticeInfo
			b.Detail = strings.TrimRight(e.StderrTail, "\n")
		default:
			b.Title, b.Detail = name+" "+e.Describe(), strings.TrimRight(e.StderrTail, "\n")
		}
	default:
		return nil
	}
	return b
}

// connStatus is the status bar's word for the connection; the banner says
// the rest, once.
func (s *Session) connStatus(st *Status) {
	switch s.conn {
	case ConnStarting:
		st.Connection = "Starting agent…"
		if s.slowStart {
			st.Connection = "Agent not answering"
		}
	case ConnReady:
		st.Connection, st.Connected = "Connected", true
	case ConnExited:
		st.Exited = true
		st.Connection = "Agent exited"
		if s.exit.EndedByItself() {
			st.Exited, st.Ended = false, true
			st.Connection = "Session ended"
		}
	case ConnFailed:
		st.Exited = true
		st.Connection = "Not connected"
	}
	if s.connDetail != "" {
		st.Connection += " · " + s.connDetail
	}
}

// interruptedNote ends a reply the agent never finished because it exited.
const interruptedNote = "Incomplete: the agent stopped before the reply was finished."

// BannerSeq tells banners apart: a nil banner is 0.
func BannerSeq(b *BannerState) uint64 {
	if b == nil {
		return 0
	}
	return b.Seq
}
