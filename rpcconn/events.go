package rpcconn

import "encoding/json"

// Event is anything the agent sends on its own: session events, extension UI
// requests, and the connection's own ProtocolError and Exit.
type Event interface {
	// EventType is the record's "type" as the agent sent it (or a name of
	// rpcconn's own for ProtocolError and Exit).
	EventType() string
}

// AgentStart: the agent begins processing.
type AgentStart struct{}

// AgentEnd: one low-level run ended. Messages is kept raw and unvalidated:
// the run's messages already arrived one by one in message_end.
type AgentEnd struct {
	Messages  json.RawMessage `json:"messages,omitempty"`
	WillRetry bool            `json:"willRetry"`
}

// AgentSettled: the run is over; nothing will continue automatically.
// Aborted (newer agents, pi 1.6) says it ended because it was stopped.
type AgentSettled struct {
	Aborted bool `json:"aborted,omitempty"`
}

// TurnStart: a turn (one assistant reply and its tool calls) begins.
type TurnStart struct{}

// TurnEnd: a turn ended.
type TurnEnd struct {
	Message     Message   `json:"message"`
	ToolResults []Message `json:"toolResults"`
}

// MessageStart: a message begins.
type MessageStart struct {
	Message Message `json:"message"`
}

// MessageUpdate carries one streaming delta of the assistant message.
type MessageUpdate struct {
	Delta AssistantDelta `json:"assistantMessageEvent"`
	// Usage is the latest cumulative usage, when the agent sends it.
	Usage *Usage `json:"usage,omitempty"`
}

// Delta kinds of a MessageUpdate.
const (
	DeltaTextStart     = "text_start"
	DeltaTextDelta     = "text_delta"
	DeltaTextEnd       = "text_end"
	DeltaThinkingStart = "thinking_start"
	DeltaThinkingDelta = "thinking_delta"
	DeltaThinkingEnd   = "thinking_end"
	DeltaToolCallStart = "toolcall_start"
	DeltaToolCallDelta = "toolcall_delta"
	DeltaToolCallEnd   = "toolcall_end"
)

// AssistantDelta is the assistantMessageEvent of a message_update. The older
// agents' cumulative "partial" field is deliberately absent.
type AssistantDelta struct {
	Type         string `json:"type"`
	ContentIndex int    `json:"contentIndex"`
	// Delta is the new text, thinking or tool-argument JSON.
	Delta string `json:"delta,omitempty"`
	// Content is the whole block at text_end and thinking_end.
	Content string `json:"content,omitempty"`
	// ID and ToolName arrive with toolcall_start.
	ID       string `json:"id,omitempty"`
	ToolName string `json:"toolName,omitempty"`
	// ToolCall is the completed call at toolcall_end.
	ToolCall *ContentBlock `json:"toolCall,omitempty"`
}

// MessageEnd: a message is complete; its Message is authoritative.
type MessageEnd struct {
	Message Message `json:"message"`
}

// BashExecutionUpdate is one output chunk of a direct bash command; ID is the
// command's request id.
type BashExecutionUpdate struct {
	ID    string `json:"id"`
	Delta string `json:"delta"`
}

// ToolExecutionStart: a tool begins.
type ToolExecutionStart struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args,omitempty"`
}

// ToolExecutionUpdate carries the accumulated output so far: it replaces the
// previous one.
type ToolExecutionUpdate struct {
	ToolCallID    string          `json:"toolCallId"`
	ToolName      string          `json:"toolName"`
	Args          json.RawMessage `json:"args,omitempty"`
	PartialResult ToolResult      `json:"partialResult"`
}

// ToolExecutionEnd: a tool finished. DurationMs is the agent's own
// measure of the run (newer agents, pi 1.6); 0 when it gives none.
type ToolExecutionEnd struct {
	ToolCallID string     `json:"toolCallId"`
	ToolName   string     `json:"toolName"`
	Result     ToolResult `json:"result"`
	IsError    bool       `json:"isError"`
	DurationMs int64      `json:"durationMs,omitempty"`
}

// QueueUpdate is the pending steering and follow-up queue after a change.
type QueueUpdate struct {
	Steering []string `json:"steering"`
	FollowUp []string `json:"followUp"`
}

// CompactionStart: compaction begins; Reason is manual, threshold or overflow.
type CompactionStart struct {
	Reason string `json:"reason"`
}

// CompactionEnd: compaction finished, was aborted, or failed.
type CompactionEnd struct {
	Reason       string            `json:"reason"`
	Result       *CompactionResult `json:"result"`
	Aborted      bool              `json:"aborted"`
	WillRetry    bool              `json:"willRetry"`
	ErrorMessage string            `json:"errorMessage,omitempty"`
}

// AutoRetryStart: a transient error will be retried after DelayMs.
type AutoRetryStart struct {
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int    `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// AutoRetryEnd: retrying succeeded or gave up.
type AutoRetryEnd struct {
	Success    bool   `json:"success"`
	Attempt    int    `json:"attempt"`
	FinalError string `json:"finalError,omitempty"`
}

// SummarizationRetryScheduled: a compaction or branch summary will be retried.
type SummarizationRetryScheduled struct {
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int    `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// SummarizationRetryAttemptStart: a retried summarization starts.
type SummarizationRetryAttemptStart struct {
	// Source is "compaction" or "branchSummary".
	Source string `json:"source"`
	Reason string `json:"reason,omitempty"`
}

// SummarizationRetryFinished: the summarization retry loop is over.
type SummarizationRetryFinished struct{}

// ExtensionError: an extension threw.
type ExtensionError struct {
	ExtensionPath string `json:"extensionPath"`
	Event         string `json:"event"`
	Error         string `json:"error"`
}

// ThinkingLevelChanged is sent when the level changes (pi 0.73.1 and 1.6;
// not in the 0.9.2 reference).
type ThinkingLevelChanged struct {
	Level string `json:"level"`
}

// SessionInfoChanged is sent when the session is renamed (pi 0.73.1 and
// 1.6; not in the 0.9.2 reference).
type SessionInfoChanged struct {
	Name string `json:"name"`
}

// UnknownEvent is a record of a type this package does not know, kept raw so
// a newer agent never breaks the connection.
type UnknownEvent struct {
	Type string
	Raw  json.RawMessage
}

// Event type names as the agent sends them.
const (
	TypeAgentStart                     = "agent_start"
	TypeAgentEnd                       = "agent_end"
	TypeAgentSettled                   = "agent_settled"
	TypeTurnStart                      = "turn_start"
	TypeTurnEnd                        = "turn_end"
	TypeMessageStart                   = "message_start"
	TypeMessageUpdate                  = "message_update"
	TypeMessageEnd                     = "message_end"
	TypeBashExecutionUpdate            = "bash_execution_update"
	TypeToolExecutionStart             = "tool_execution_start"
	TypeToolExecutionUpdate            = "tool_execution_update"
	TypeToolExecutionEnd               = "tool_execution_end"
	TypeQueueUpdate                    = "queue_update"
	TypeCompactionStart                = "compaction_start"
	TypeCompactionEnd                  = "compaction_end"
	TypeAutoRetryStart                 = "auto_retry_start"
	TypeAutoRetryEnd                   = "auto_retry_end"
	TypeSummarizationRetryScheduled    = "summarization_retry_scheduled"
	TypeSummarizationRetryAttemptStart = "summarization_retry_attempt_start"
	TypeSummarizationRetryFinished     = "summarization_retry_finished"
	TypeExtensionError                 = "extension_error"
	TypeThinkingLevelChanged           = "thinking_level_changed"
	TypeSessionInfoChanged             = "session_info_changed"
	TypeExtensionUIRequest             = "extension_ui_request"
	TypeResponse                       = "response"
)

// Each event's EventType is its "type" on the wire (Event).

func (AgentStart) EventType() string                     { return TypeAgentStart }
func (AgentEnd) EventType() string                       { return TypeAgentEnd }
func (AgentSettled) EventType() string                   { return TypeAgentSettled }
func (TurnStart) EventType() string                      { return TypeTurnStart }
func (TurnEnd) EventType() string                        { return TypeTurnEnd }
func (MessageStart) EventType() string                   { return TypeMessageStart }
func (MessageUpdate) EventType() string                  { return TypeMessageUpdate }
func (MessageEnd) EventType() string                     { return TypeMessageEnd }
func (BashExecutionUpdate) EventType() string            { return TypeBashExecutionUpdate }
func (ToolExecutionStart) EventType() string             { return TypeToolExecutionStart }
func (ToolExecutionUpdate) EventType() string            { return TypeToolExecutionUpdate }
func (ToolExecutionEnd) EventType() string               { return TypeToolExecutionEnd }
func (QueueUpdate) EventType() string                    { return TypeQueueUpdate }
func (CompactionStart) EventType() string                { return TypeCompactionStart }
func (CompactionEnd) EventType() string                  { return TypeCompactionEnd }
func (AutoRetryStart) EventType() string                 { return TypeAutoRetryStart }
func (AutoRetryEnd) EventType() string                   { return TypeAutoRetryEnd }
func (SummarizationRetryScheduled) EventType() string    { return TypeSummarizationRetryScheduled }
func (SummarizationRetryAttemptStart) EventType() string { return TypeSummarizationRetryAttemptStart }
func (SummarizationRetryFinished) EventType() string     { return TypeSummarizationRetryFinished }
func (ExtensionError) EventType() string                 { return TypeExtensionError }
func (ThinkingLevelChanged) EventType() string           { return TypeThinkingLevelChanged }
func (SessionInfoChanged) EventType() string             { return TypeSessionInfoChanged }
func (e UnknownEvent) EventType() string                 { return e.Type }

// newEvent returns a zero value of the event type named t, as a pointer for
// decoding, or nil when the type is not known.
func newEvent(t string) Event {
	switch t {
	case TypeAgentStart:
		return &AgentStart{}
	case TypeAgentEnd:
		return &AgentEnd{}
	case TypeAgentSettled:
		return &AgentSettled{}
	case TypeTurnStart:
		return &TurnStart{}
	case TypeTurnEnd:
		return &TurnEnd{}
	case TypeMessageStart:
		return &MessageStart{}
	case TypeMessageEnd:
		return &MessageEnd{}
	case TypeBashExecutionUpdate:
		return &BashExecutionUpdate{}
	case TypeToolExecutionStart:
		return &ToolExecutionStart{}
	case TypeToolExecutionUpdate:
		return &ToolExecutionUpdate{}
	case TypeToolExecutionEnd:
		return &ToolExecutionEnd{}
	case TypeQueueUpdate:
		return &QueueUpdate{}
	case TypeCompactionStart:
		return &CompactionStart{}
	case TypeCompactionEnd:
		return &CompactionEnd{}
	case TypeAutoRetryStart:
		return &AutoRetryStart{}
	case TypeAutoRetryEnd:
		return &AutoRetryEnd{}
	case TypeSummarizationRetryScheduled:
		return &SummarizationRetryScheduled{}
	case TypeSummarizationRetryAttemptStart:
		return &SummarizationRetryAttemptStart{}
	case TypeSummarizationRetryFinished:
		return &SummarizationRetryFinished{}
	case TypeExtensionError:
		return &ExtensionError{}
	case TypeThinkingLevelChanged:
		return &ThinkingLevelChanged{}
	case TypeSessionInfoChanged:
		return &SessionInfoChanged{}
	case TypeExtensionUIRequest:
		return &ExtensionUIRequest{}
	}
	return nil
}
