package model

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// toolOutputCap bounds the tool output kept for drawing; the agent keeps the
// whole output (fullOutputPath) when it matters.
const toolOutputCap = 256 << 10

// ArgsSummary is the one-line description of a tool call: the command for
// bash, the path for file tools, else compact JSON.
func ArgsSummary(tool string, args json.RawMessage) string {
	if len(args) == 0 {
		return ""
	}
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	return argsSummaryOf(tool, args, m)
}

// argsSummaryOf is argsSummary of arguments already decoded (m, nil when
// they are not an object) from raw.
func argsSummaryOf(tool string, raw []byte, m map[string]any) string {
	for _, key := range []string{"command", "path", "file_path", "pattern", "query", "url"} {
		if v, ok := m[key].(string); ok && v != "" {
			return OneLine(v, 120)
		}
	}
	return OneLine(string(raw), 120)
}

// streamingSummary is argsSummary of a call's arguments as far as they
// have streamed: what is known of its command or path, never the JSON
// text cut short, nor the file content or edits that come before the
// path (the JSON's keys may be in any order).
func streamingSummary(tool string, raw []byte, args map[string]any) string {
	if args == nil {
		return ""
	}
	for _, key := range []string{"command", "path", "file_path", "pattern", "query", "url"} {
		if v, ok := args[key].(string); ok && v != "" {
			return OneLine(v, 120)
		}
	}
	return OneLine(callCommand(tool, raw, args), 120)
}

// OneLine flattens s to a single line of at most max runes.
func OneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func thumbnails(content rpcconn.Content) []Thumbnail {
	var out []Thumbnail
	for _, b := range content {
		if b.Type != rpcconn.ContentImage {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(b.Data)
		if err != nil {
			continue
		}
		out = append(out, Thumbnail{Data: data, MimeType: b.MimeType})
	}
	return out
}

// assistantBlocks converts a reply's content, giving tool-call chips the
// status of their runs.
func assistantBlocks(content rpcconn.Content, status func(id string) ToolStatus) []ChatBlock {
	blocks := make([]ChatBlock, 0, len(content))
	for _, c := range content {
		switch c.Type {
		case rpcconn.ContentText:
			blocks = append(blocks, ChatBlock{Kind: BlockText, Text: c.Text})
		case rpcconn.ContentThinking:
			blocks = append(blocks, ChatBlock{Kind: BlockThinking, Text: c.Thinking})
		case rpcconn.ContentToolCall:
			blocks = append(blocks, ChatBlock{
				Kind: BlockToolCall, ToolCallID: c.ID, ToolName: c.Name,
				ArgsSummary: ArgsSummary(c.Name, c.Arguments), ToolStatus: status(c.ID),
			})
		}
	}
	return blocks
}

func messageMeta(m rpcconn.Message) string {
	var parts []string
	if m.Model != "" {
		parts = append(parts, m.Model)
	}
	if m.Timestamp > 0 {
		parts = append(parts, time.UnixMilli(m.Timestamp).Format("15:04"))
	}
	return strings.Join(parts, " · ")
}

func modelChoices(models []rpcconn.Model) []ModelChoice {
	out := make([]ModelChoice, len(models))
	for i, m := range models {
		name := m.Name
		if name == "" {
			name = m.ID
		}
		out[i] = ModelChoice{Provider: m.Provider, ID: m.ID, Name: name, Reasoning: m.Reasoning, Images: m.AcceptsImages()}
	}
	return out
}

func formatTokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
