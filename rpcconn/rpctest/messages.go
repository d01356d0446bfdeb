package rpctest

import (
	"encoding/json"
	"strings"
)

// Content blocks are separate types, not one struct with omitempty fields,
// because an empty text block must still carry "text":"".
type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingContent struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type toolCallContent struct {
	Type      string         `json:"type"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	// noDiff: the fake's edit returns no details.diff for this call.
	noDiff bool
}

type imageContent struct {
	Type     string `json:"type"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

type usage struct {
	Input       int       `json:"input"`
	Output      int       `json:"output"`
	CacheRead   int       `json:"cacheRead"`
	CacheWrite  int       `json:"cacheWrite"`
	TotalTokens int       `json:"totalTokens"`
	Cost        usageCost `json:"cost"`
}

type usageCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

// priced fills in the totals and the cost at the model's prices.
func priced(m *model, u usage) usage {
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	if m == nil {
		return u
	}
	per := func(tokens int, dollarsPerM float64) float64 { return float64(tokens) * dollarsPerM / 1e6 }
	u.Cost = usageCost{
		Input:      per(u.Input, m.Cost.Input),
		Output:     per(u.Output, m.Cost.Output),
		CacheRead:  per(u.CacheRead, m.Cost.CacheRead),
		CacheWrite: per(u.CacheWrite, m.Cost.CacheWrite),
	}
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	return u
}

// tokenEstimate is the usual four-characters-a-token rule of thumb.
func tokenEstimate(s string) int { return (len(s) + 3) / 4 }

type userMessage struct {
	Role      string `json:"role"`
	Content   []any  `json:"content"`
	Timestamp int64  `json:"timestamp"`
}

func newUserMessage(text string, images []imageContent) userMessage {
	content := []any{textContent{"text", text}}
	for _, img := range images {
		content = append(content, img)
	}
	return userMessage{Role: "user", Content: content, Timestamp: nowMillis()}
}

// assistantMessage holds pointers to its blocks so a stream can grow them in
// place.
type assistantMessage struct {
	Role         string `json:"role"`
	Content      []any  `json:"content"`
	API          string `json:"api"`
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	Usage        usage  `json:"usage"`
	StopReason   string `json:"stopReason"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	Timestamp    int64  `json:"timestamp"`
}

type toolResultMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Content    []any  `json:"content"`
	Details    any    `json:"details,omitempty"`
	IsError    bool   `json:"isError"`
	// DurationMs is the run's time, as pi 1.6 records it; 0 (left out)
	// for the older agent.
	DurationMs int64 `json:"durationMs,omitempty"`
	Timestamp  int64 `json:"timestamp"`
}

type bashMessage struct {
	Role           string  `json:"role"`
	Command        string  `json:"command"`
	Output         string  `json:"output"`
	ExitCode       *int    `json:"exitCode,omitempty"`
	Cancelled      bool    `json:"cancelled"`
	Truncated      bool    `json:"truncated"`
	FullOutputPath *string `json:"fullOutputPath"`
	Timestamp      int64   `json:"timestamp"`
}

type compactionSummaryMessage struct {
	Role         string `json:"role"`
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokensBefore"`
	Timestamp    int64  `json:"timestamp"`
}

// storedMessage is what is read back from a stored message, whichever role.
type storedMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Usage   *usage          `json:"usage"`
	Command string          `json:"command"`
	Output  string          `json:"output"`
}

func decodeMessage(raw json.RawMessage) storedMessage {
	var m storedMessage
	json.Unmarshal(raw, &m)
	return m
}

// blocks decodes content, which may be a plain string or an array of blocks.
func (m storedMessage) blocks() []struct{ Type, Text string } {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []struct{ Type, Text string }{{"text", s}}
	}
	var bs []struct{ Type, Text string }
	json.Unmarshal(m.Content, &bs)
	return bs
}

// text joins the text blocks, which is what "the text of a message" means to
// fork and get_last_assistant_text.
func (m storedMessage) text() string {
	var parts []string
	for _, b := range m.blocks() {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (m storedMessage) toolCalls() int {
	n := 0
	for _, b := range m.blocks() {
		if b.Type == "toolCall" {
			n++
		}
	}
	return n
}

// systemMessage is pi 1.6's system prompt as a message: no content, the
// prompt in named sections, in order.
type systemMessage struct {
	Role     string `json:"role"`
	Content  string `json:"content"`
	Sections object `json:"sections"`
}

// fakeSystemSections are the fake's system prompt.
var fakeSystemSections = obj(
	"preamble", "You are the fake KnightCode agent, a scripted stand-in for tests.",
	"tools", "<tools>\n- read: Read file contents\n- bash: Execute bash commands\n</tools>",
	"rules", "<rules>\n- Answer from the script, never from a model\n</rules>",
)

// sendSystemPrompt records and sends the system message before a
// session's first turn, as pi 1.6 does; a session that has one already
// gets none.
func (a *agent) sendSystemPrompt() {
	a.mu.Lock()
	has := a.sess.hasRole("system")
	var m systemMessage
	if !has {
		m = systemMessage{Role: "system", Content: "", Sections: fakeSystemSections}
		a.sess.appendMessage(m)
	}
	a.mu.Unlock()
	if has {
		return
	}
	a.emit(obj("type", "message_start", "message", m))
	a.emit(obj("type", "message_end", "message", m))
}
