package app

import (
	"time"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/widgets"
)

// historyItem converts a stored message of a role other than assistant and
// toolResult into a transcript entry.
func (s *Session) historyItem(m rpcconn.Message) (widgets.ChatItem, bool) {
	switch m.Role {
	case rpcconn.RoleUser:
		return widgets.ChatItem{Kind: widgets.ChatUser, Text: m.Content.Text(), Images: thumbnails(m.Content), Meta: messageMeta(m)}, true
	case rpcconn.RoleBashExecution:
		return widgets.ChatItem{Kind: widgets.ChatBash, Command: m.Command, Text: m.Output, ExitCode: m.ExitCode,
			Cancelled: m.Cancelled, Truncated: m.Truncated, FullOutputPath: m.FullOutputPath, Meta: messageMeta(m)}, true
	case rpcconn.RoleCustom:
		if !m.Display {
			return widgets.ChatItem{}, false
		}
		return widgets.ChatItem{Kind: widgets.ChatCustom, Text: m.Content.Text(), Meta: m.CustomType}, true
	case rpcconn.RoleBranchSummary:
		return widgets.ChatItem{Kind: widgets.ChatBranchSummary, Text: m.Summary, Meta: "Summary of another branch"}, true
	case rpcconn.RoleCompactionSummary:
		return widgets.ChatItem{Kind: widgets.ChatCompaction, Text: m.Summary,
			Meta: "Compacted: " + formatTokens(m.TokensBefore) + " tokens summarised"}, true
	}
	return widgets.ChatItem{}, false
}

// LoadHistory replaces the transcript and tool cards with a session's stored
// messages (get_messages), as after start, restart or a session switch.
func (s *Session) LoadHistory(msgs []rpcconn.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = make([]widgets.ChatItem, 0, len(msgs))
	// A !command still running belongs to the transcript being replaced.
	s.bashRunning = nil
	s.liveIndex = -1
	s.live = rpcconn.MessageBuilder{}
	s.tools = rpcconn.ToolTracker{}
	s.toolMeta = map[string]*toolMeta{}
	s.toolOrder = nil
	s.turn = 0
	s.toolsRev++
	s.chatRev++
	s.touch()

	// Tool results first, so chips get their final status.
	results := map[string]*rpcconn.Message{}
	for i := range msgs {
		if msgs[i].Role == rpcconn.RoleToolResult {
			results[msgs[i].ToolCallID] = &msgs[i]
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case rpcconn.RoleAssistant:
			s.turn++
			i := s.appendItem(widgets.ChatItem{Kind: widgets.ChatAssistant})
			for _, c := range m.Content {
				if c.Type == rpcconn.ContentToolCall {
					s.historyTool(c, m.Timestamp, results[c.ID])
				}
			}
			s.finishAssistant(i, m)
		case rpcconn.RoleToolResult:
		default:
			if it, ok := s.historyItem(m); ok {
				s.appendItem(it)
			}
		}
	}
}

// historyTool recreates a finished tool run from a stored call and result.
// The reply that made the call dates its start, the result its end.
func (s *Session) historyTool(call rpcconn.ContentBlock, calledAt int64, result *rpcconn.Message) {
	s.tools.Apply(&rpcconn.ToolExecutionStart{ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments})
	m := s.meta(call.ID)
	m.turn = s.turn
	s.toolOrder = append(s.toolOrder, call.ID)
	if result == nil {
		return
	}
	s.tools.Apply(&rpcconn.ToolExecutionEnd{ToolCallID: call.ID, ToolName: call.Name,
		Result: rpcconn.ToolResult{Content: result.Content, Details: result.Details}, IsError: result.IsError})
	if result.Timestamp > 0 {
		m.ended = time.UnixMilli(result.Timestamp)
		m.started = m.ended
		if calledAt > 0 && calledAt <= result.Timestamp {
			m.started = time.UnixMilli(calledAt)
		}
	}
	m.rev++
}
