package model

import (
	"slices"

	"knightcode.ai/desktop/rpcconn"
)

// A prompt shows in the transcript the moment it is sent, marked as waiting
// for the agent, and becomes the agent's own record when the agent echoes
// it (its user message replaces the waiting item in place: no duplicate, no
// jump). One the agent has not taken for notReadingAfter is stuck: the
// banner says the agent is not reading its input.

// AddWaitingPrompt puts a sent prompt in the transcript as waiting and
// returns its item's ID.
func (s *Session) AddWaitingPrompt(text string, images []rpcconn.Image) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var content rpcconn.Content
	for _, im := range images {
		content = append(content, rpcconn.ContentBlock{Type: rpcconn.ContentImage, Data: im.Data, MimeType: im.MimeType})
	}
	i := s.appendItem(ChatItem{Kind: ChatUser, Text: text, Images: thumbnails(content), Waiting: true})
	s.touch()
	return s.items[i].ID
}

// waitingIndex is the index of the waiting item id, or -1.
func (s *Session) waitingIndex(id string) int {
	return slices.IndexFunc(s.items, func(it ChatItem) bool { return it.ID == id && it.Waiting })
}

// takeWaiting is where the agent's echo of a prompt goes: the oldest
// waiting item, or -1 when none waits.
func (s *Session) takeWaiting() int {
	return slices.IndexFunc(s.items, func(it ChatItem) bool { return it.Waiting })
}

// DropWaiting takes a waiting item out of the transcript: its prompt went
// back to the editor, failed, or was a command that makes no message.
func (s *Session) DropWaiting(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.waitingIndex(id); i >= 0 {
		s.items = slices.Delete(s.items, i, i+1)
		s.chatRev++
		s.touch()
	}
	s.updateNotReading()
}

// SetStuck marks a waiting prompt the agent has not taken for too long, or
// no longer.
func (s *Session) SetStuck(id string, stuck bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.waitingIndex(id); i >= 0 && s.items[i].Stuck != stuck {
		s.changeItem(i, func(it *ChatItem) { it.Stuck = stuck })
		s.touch()
	}
	s.updateNotReading()
}

// updateNotReading sets the banner's "not reading" from the stuck items.
func (s *Session) updateNotReading() {
	stuck := slices.ContainsFunc(s.items, func(it ChatItem) bool { return it.Waiting && it.Stuck })
	if stuck != s.notReading {
		s.notReading = stuck
		s.BannerSeq++
		s.touch()
	}
}

// Waiting reports whether the item id is a prompt waiting for the agent.
func (s *Session) Waiting(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waitingIndex(id) >= 0
}

// EventCount counts the events the agent has sent, to tell an agent that
// is busy with a prompt from one that does not read.
func (s *Session) EventCount() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events
}

// followUpNotShown is the agent's follow-up queue without the prompts the
// transcript shows as waiting already (a prompt sent while the one before
// had not started goes as a follow-up): each shows once.
func (s *Session) followUpNotShown() []string {
	var waiting []string
	for _, it := range s.items {
		if it.Waiting {
			waiting = append(waiting, it.Text)
		}
	}
	out := make([]string, 0, len(s.followUp))
	for _, f := range s.followUp {
		if i := slices.Index(waiting, f); i >= 0 {
			waiting = slices.Delete(waiting, i, i+1)
			continue
		}
		out = append(out, f)
	}
	return out
}
