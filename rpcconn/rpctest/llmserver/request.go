package llmserver

import (
	"encoding/json"
	"strings"
	"time"
)

// Request is what the server understood of one chat-completions request. It
// is logged before the reply starts, so a test can wait for it and then act
// while the reply is still streaming. Treat it as read-only: copies share
// their slices.
type Request struct {
	Seq          int       `json:"seq"` // 1-based arrival order
	Time         time.Time `json:"time"`
	Model        string    `json:"model"`
	Stream       bool      `json:"stream"`
	IncludeUsage bool      `json:"include_usage"`
	// MaxTokens comes from max_tokens or max_completion_tokens, whichever
	// was sent; MaxTokensField says which, to check provider compat settings.
	MaxTokens       int    `json:"max_tokens,omitempty"`
	MaxTokensField  string `json:"max_tokens_field,omitempty"`
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// Reasoning holds every top-level field about reasoning or thinking
	// (reasoning_effort, reasoning, thinking, enable_thinking,
	// chat_template_kwargs, ...) exactly as sent, because providers differ
	// in which one they use.
	Reasoning map[string]json.RawMessage `json:"reasoning,omitempty"`
	Messages  []Message                  `json:"messages"`
	Tools     []string                   `json:"tools,omitempty"`
	HasImages bool                       `json:"has_images"`
	// Reply names the script that answered: default, markdown, long, bash,
	// tool-result, error or bad-request.
	Reply string `json:"reply"`
	// Authorization is the request's Authorization header, for tests of
	// where a client's API key comes from.
	Authorization string          `json:"authorization,omitempty"`
	Raw           json.RawMessage `json:"raw"`
}

// Message is one chat message reduced to what tests look at.
type Message struct {
	Role       string     `json:"role"`
	Text       string     `json:"text,omitempty"` // text parts joined with "\n"
	Images     int        `json:"images,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
}

// ToolCall is a tool call replayed in an assistant message.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// LastUserText returns the text of the last user message, where markers are
// looked for.
func (r Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text
		}
	}
	return ""
}

// LastMessage returns the final message, or a zero Message if there is none.
func (r Request) LastMessage() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

type wireRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage *bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int           `json:"max_tokens"`
	MaxCompletionTokens int           `json:"max_completion_tokens"`
	ReasoningEffort     string        `json:"reasoning_effort"`
	Messages            []wireMessage `json:"messages"`
	Tools               []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type wirePart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// decodeRequest never fails on a well-formed JSON object: fields it does not
// know are kept in Raw, so a newer agent's extra fields cannot break a test.
func decodeRequest(body []byte) (Request, error) {
	req := Request{Raw: json.RawMessage(body)}
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return req, err
	}
	req.Model = w.Model
	req.Stream = w.Stream
	// Usage is on unless the client turned it off: the agent asks for it,
	// and a bare curl should still see what a usage chunk looks like.
	req.IncludeUsage = w.StreamOptions == nil || w.StreamOptions.IncludeUsage == nil || *w.StreamOptions.IncludeUsage
	switch {
	case w.MaxTokens > 0:
		req.MaxTokens, req.MaxTokensField = w.MaxTokens, "max_tokens"
	case w.MaxCompletionTokens > 0:
		req.MaxTokens, req.MaxTokensField = w.MaxCompletionTokens, "max_completion_tokens"
	}
	req.ReasoningEffort = w.ReasoningEffort
	req.Reasoning = reasoningFields(body)
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for _, wm := range w.Messages {
		m := Message{Role: wm.Role, ToolCallID: wm.ToolCallID}
		m.Text, m.Images = decodeContent(wm.Content)
		for _, tc := range wm.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		if m.Images > 0 {
			req.HasImages = true
		}
		req.Messages = append(req.Messages, m)
	}
	return req, nil
}

// decodeContent accepts both shapes OpenAI allows: a string, or an array of
// parts of which text parts carry text and image_url parts are counted.
func decodeContent(raw json.RawMessage) (text string, images int) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, 0
	}
	var parts []wirePart
	if json.Unmarshal(raw, &parts) != nil {
		return "", 0
	}
	var texts []string
	for _, p := range parts {
		switch p.Type {
		case "text", "input_text":
			texts = append(texts, p.Text)
		case "image_url", "input_image", "image":
			images++
		}
	}
	return strings.Join(texts, "\n"), images
}

func reasoningFields(body []byte) map[string]json.RawMessage {
	var all map[string]json.RawMessage
	if json.Unmarshal(body, &all) != nil {
		return nil
	}
	var out map[string]json.RawMessage
	for k, v := range all {
		if strings.Contains(k, "reason") || strings.Contains(k, "think") || k == "chat_template_kwargs" {
			if out == nil {
				out = map[string]json.RawMessage{}
			}
			out[k] = v
		}
	}
	return out
}
