package rpcconn

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Model is an LLM the agent can use.
type Model struct {
	ID            string    `json:"id"`
	Name          string    `json:"name,omitempty"`
	API           string    `json:"api,omitempty"`
	Provider      string    `json:"provider"`
	BaseURL       string    `json:"baseUrl,omitempty"`
	Reasoning     bool      `json:"reasoning"`
	Input         []string  `json:"input,omitempty"`
	ContextWindow int       `json:"contextWindow,omitempty"`
	MaxTokens     int       `json:"maxTokens,omitempty"`
	Cost          ModelCost `json:"cost"`
	// ThinkingLevelMap is how the model's provider spells each level; a
	// level mapped to null is one the model does not take, and xhigh only
	// when named (pi 0.73.1's rule, which cannot be asked for the levels).
	ThinkingLevelMap map[string]any `json:"thinkingLevelMap,omitempty"`
}

// AcceptsImages reports whether the model takes image input.
func (m Model) AcceptsImages() bool {
	for _, in := range m.Input {
		if in == "image" {
			return true
		}
	}
	return false
}

// ModelCost is the price per million tokens.
type ModelCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

// Usage is token usage and cost reported by a provider.
type Usage struct {
	Input       int       `json:"input"`
	Output      int       `json:"output"`
	CacheRead   int       `json:"cacheRead"`
	CacheWrite  int       `json:"cacheWrite"`
	TotalTokens int       `json:"totalTokens"`
	Cost        UsageCost `json:"cost"`
}

// UsageCost is the money a Usage cost.
type UsageCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

// Content block types.
const (
	ContentText     = "text"
	ContentThinking = "thinking"
	ContentToolCall = "toolCall"
	ContentImage    = "image"
)

// ContentBlock is one block of a message: text, thinking, a tool call or an
// image, told apart by Type.
type ContentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Data      string          `json:"data,omitempty"`
	MimeType  string          `json:"mimeType,omitempty"`
}

// Image is image content sent with a prompt, steer or follow-up.
type Image struct {
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

// MarshalJSON adds the "type":"image" tag the protocol requires.
func (i Image) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type     string `json:"type"`
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
	}{ContentImage, i.Data, i.MimeType})
}

// Content is a message's content. The protocol allows a plain string for user
// and custom messages; it is normalised to a single text block.
type Content []ContentBlock

// UnmarshalJSON accepts both the string and the block-array forms.
func (c *Content) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*c = Content{{Type: ContentText, Text: s}}
		return nil
	}
	if bytes.Equal(data, []byte("null")) {
		*c = nil
		return nil
	}
	var blocks []ContentBlock
	if err := json.Unmarshal(data, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// Text joins the text blocks. The common single block is returned as it
// is, not copied: a long session's tool outputs are half its bytes.
func (c Content) Text() string {
	texts, only := 0, -1
	for i := range c {
		if c[i].Type == ContentText {
			texts, only = texts+1, i
		}
	}
	switch texts {
	case 0:
		return ""
	case 1:
		return c[only].Text
	}
	var b []byte
	for _, block := range c {
		if block.Type == ContentText {
			if len(b) > 0 {
				b = append(b, '\n')
			}
			b = append(b, block.Text...)
		}
	}
	return string(b)
}

// Message roles.
const (
	RoleUser              = "user"
	RoleAssistant         = "assistant"
	RoleToolResult        = "toolResult"
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
	// RoleSystem is the system prompt, which newer pi (1.6) puts at the
	// head of get_messages and sends as a message at a session's first
	// turn, its text in Sections; it is not a chat turn.
	RoleSystem = "system"
)

// Stop reasons of an assistant message.
const (
	StopReasonStop    = "stop"
	StopReasonLength  = "length"
	StopReasonToolUse = "toolUse"
	StopReasonError   = "error"
	StopReasonAborted = "aborted"
)

// Message is an AgentMessage of any role; the fields a role does not use stay
// zero. One struct instead of seven keeps transcripts a plain slice.
type Message struct {
	Role      string  `json:"role"`
	Content   Content `json:"content,omitempty"`
	Timestamp int64   `json:"timestamp,omitempty"`

	// assistant
	API          string `json:"api,omitempty"`
	Provider     string `json:"provider,omitempty"`
	Model        string `json:"model,omitempty"`
	Usage        *Usage `json:"usage,omitempty"`
	StopReason   string `json:"stopReason,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`

	// DurationMs is how long the agent took for an assistant message or a
	// tool run (newer agents, pi 1.6); 0 when it says nothing.
	DurationMs int64 `json:"durationMs,omitempty"`

	// toolResult
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	Details    json.RawMessage `json:"details,omitempty"`

	// bashExecution
	Command            string `json:"command,omitempty"`
	Output             string `json:"output,omitempty"`
	ExitCode           *int   `json:"exitCode,omitempty"`
	Cancelled          bool   `json:"cancelled,omitempty"`
	Truncated          bool   `json:"truncated,omitempty"`
	FullOutputPath     string `json:"fullOutputPath,omitempty"`
	ExcludeFromContext bool   `json:"excludeFromContext,omitempty"`

	// custom
	CustomType string `json:"customType,omitempty"`
	Display    bool   `json:"display,omitempty"`

	// branchSummary and compactionSummary
	Summary      string `json:"summary,omitempty"`
	FromID       string `json:"fromId,omitempty"`
	TokensBefore int    `json:"tokensBefore,omitempty"`

	// system: the prompt in named parts, in the agent's order.
	Sections Sections `json:"sections,omitempty"`
}

// Section is one named part of a system prompt ("preamble", "tools", …).
type Section struct {
	Name, Text string
}

// Sections are a system prompt's parts in the order the agent wrote them
// (a JSON object, whose order a map would lose).
type Sections []Section

// UnmarshalJSON reads the object member by member; a value that is not a
// string is kept as its JSON text.
func (s *Sections) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if tok == nil {
			*s = nil
			return nil
		}
		return fmt.Errorf("sections: not an object")
	}
	var out Sections
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var text string
		if json.Unmarshal(raw, &text) != nil {
			text = string(raw)
		}
		out = append(out, Section{Name: name, Text: text})
	}
	*s = out
	return nil
}

// MarshalJSON writes the sections back as an object, in order.
func (s Sections) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, sec := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(sec.Name)
		v, _ := json.Marshal(sec.Text)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ToolResult is a tool's (partial) result: content plus tool-specific details.
type ToolResult struct {
	Content Content         `json:"content"`
	Details json.RawMessage `json:"details,omitempty"`
}

// FullOutputPath returns details.fullOutputPath when the tool saved its whole
// output to a file because the result was truncated.
func (r ToolResult) FullOutputPath() string {
	var d struct {
		FullOutputPath string `json:"fullOutputPath"`
	}
	if len(r.Details) > 0 {
		_ = json.Unmarshal(r.Details, &d)
	}
	return d.FullOutputPath
}

// SessionState is the answer to get_state.
type SessionState struct {
	Model                 *Model `json:"model"`
	ThinkingLevel         string `json:"thinkingLevel"`
	IsStreaming           bool   `json:"isStreaming"`
	IsCompacting          bool   `json:"isCompacting"`
	SteeringMode          string `json:"steeringMode"`
	FollowUpMode          string `json:"followUpMode"`
	SessionFile           string `json:"sessionFile,omitempty"`
	SessionID             string `json:"sessionId"`
	SessionName           string `json:"sessionName,omitempty"`
	AutoCompactionEnabled bool   `json:"autoCompactionEnabled"`
	MessageCount          int    `json:"messageCount"`
	PendingMessageCount   int    `json:"pendingMessageCount"`
}

// SessionStats is the answer to get_session_stats.
type SessionStats struct {
	SessionFile       string        `json:"sessionFile,omitempty"`
	SessionID         string        `json:"sessionId"`
	UserMessages      int           `json:"userMessages"`
	AssistantMessages int           `json:"assistantMessages"`
	ToolCalls         int           `json:"toolCalls"`
	ToolResults       int           `json:"toolResults"`
	TotalMessages     int           `json:"totalMessages"`
	Tokens            TokenTotals   `json:"tokens"`
	Cost              float64       `json:"cost"`
	ContextUsage      *ContextUsage `json:"contextUsage,omitempty"`
}

// TokenTotals are the session's token counts.
type TokenTotals struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Total      int `json:"total"`
}

// ContextUsage is how full the context window is. Tokens and Percent are nil
// right after a compaction, until the next reply reports usage.
type ContextUsage struct {
	Tokens        *int     `json:"tokens"`
	ContextWindow int      `json:"contextWindow"`
	Percent       *float64 `json:"percent"`
}

// CompactionResult is what a compaction produced.
type CompactionResult struct {
	Summary              string          `json:"summary"`
	FirstKeptEntryID     string          `json:"firstKeptEntryId"`
	TokensBefore         int             `json:"tokensBefore"`
	EstimatedTokensAfter int             `json:"estimatedTokensAfter,omitempty"`
	Usage                *Usage          `json:"usage,omitempty"`
	Details              json.RawMessage `json:"details,omitempty"`
}

// BashResult is the final result of a bash command.
type BashResult struct {
	Output         string `json:"output"`
	ExitCode       *int   `json:"exitCode"`
	Cancelled      bool   `json:"cancelled"`
	Truncated      bool   `json:"truncated"`
	FullOutputPath string `json:"fullOutputPath,omitempty"`
}

// ForkMessage is a user message a session can be forked from.
type ForkMessage struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// Entry is one entry of a session file. Entry types other than "message"
// keep their own fields in Raw.
type Entry struct {
	Type      string   `json:"type"`
	ID        string   `json:"id"`
	ParentID  *string  `json:"parentId"`
	Timestamp string   `json:"timestamp"`
	Message   *Message `json:"message,omitempty"`

	// model_change, thinking_level_change
	Provider      string `json:"provider,omitempty"`
	ModelID       string `json:"modelId,omitempty"`
	ThinkingLevel string `json:"thinkingLevel,omitempty"`
	// compaction, branch_summary
	Summary          string `json:"summary,omitempty"`
	FirstKeptEntryID string `json:"firstKeptEntryId,omitempty"`
	TokensBefore     int    `json:"tokensBefore,omitempty"`
	FromID           string `json:"fromId,omitempty"`
	// label, session_info
	TargetID string `json:"targetId,omitempty"`
	Label    string `json:"label,omitempty"`
	Name     string `json:"name,omitempty"`
	// custom, custom_message
	CustomType string `json:"customType,omitempty"`

	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the raw entry for the fields not modelled here.
func (e *Entry) UnmarshalJSON(data []byte) error {
	type plain Entry
	if err := json.Unmarshal(data, (*plain)(e)); err != nil {
		return err
	}
	e.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// Entries is the answer to get_entries.
type Entries struct {
	Entries []Entry `json:"entries"`
	LeafID  *string `json:"leafId"`
}

// TreeNode is one node of get_tree.
type TreeNode struct {
	Entry          Entry      `json:"entry"`
	Children       []TreeNode `json:"children"`
	Label          string     `json:"label,omitempty"`
	LabelTimestamp string     `json:"labelTimestamp,omitempty"`
}

// Tree is the answer to get_tree.
type Tree struct {
	Tree   []TreeNode `json:"tree"`
	LeafID *string    `json:"leafId"`
}

// Command is an extension command, prompt template or skill, invoked as /Name.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Source is "extension", "prompt" or "skill".
	Source string `json:"source"`
	// Location is "user", "project" or "path" (0.9.x agents).
	Location string `json:"location,omitempty"`
	Path     string `json:"path,omitempty"`
	// SourceInfo is what older agents send instead of Location and Path.
	SourceInfo *CommandSourceInfo `json:"sourceInfo,omitempty"`
}

// CommandSourceInfo is the older agents' description of where a command came from.
type CommandSourceInfo struct {
	Path   string `json:"path,omitempty"`
	Source string `json:"source,omitempty"`
	Scope  string `json:"scope,omitempty"`
	Origin string `json:"origin,omitempty"`
}

// FilePath is where the command is defined, from either protocol generation.
func (c Command) FilePath() string {
	if c.Path == "" && c.SourceInfo != nil {
		return c.SourceInfo.Path
	}
	return c.Path
}

// Scope is the command's location ("user", "project", "path"; older agents
// also say "temporary" for one loaded with -e), from either generation.
func (c Command) Scope() string {
	if c.Location == "" && c.SourceInfo != nil {
		return c.SourceInfo.Scope
	}
	return c.Location
}

// CycleModelResult is the answer to cycle_model.
type CycleModelResult struct {
	Model         Model  `json:"model"`
	ThinkingLevel string `json:"thinkingLevel"`
	IsScoped      bool   `json:"isScoped"`
}

// QueuedMessages are the steering and follow-up texts removed by clear_queue.
type QueuedMessages struct {
	Steering []string `json:"steering"`
	FollowUp []string `json:"followUp"`
}
