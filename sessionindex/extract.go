package sessionindex

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Caps on what one entry puts in each column; see the package doc.
const (
	capText     = 256 << 10
	capThinking = 64 << 10
	capTool     = 4 << 10
	// capToolArg bounds one tool-call argument or one tool result's text.
	capToolArg = 2 << 10
)

// firstPromptRunes bounds the first prompt kept as a session's title, as
// the session list does.
const firstPromptRunes = 120

// Kinds of hit, from the entry's type and its message's role.
const (
	KindUser          = "user"
	KindAssistant     = "assistant"
	KindToolResult    = "toolResult"
	KindBash          = "bashExecution"
	KindCustom        = "custom"
	KindCompaction    = "compaction"
	KindBranchSummary = "branch_summary"
	KindName          = "session_info"
)

// row is what one entry adds to the index.
type row struct {
	entry   string
	ts      int64 // Unix milliseconds, 0 when unknown
	kind    string
	ordinal int
	// line is the entry's line number in the file; offset and length are
	// where its line is, blank lines before it included.
	line           int
	offset, length int64
	prompt         string // what the user wrote: prompts, !commands, names
	text           string
	think          string
	tool           string
}

func (r *row) size() int { return len(r.prompt) + len(r.text) + len(r.think) + len(r.tool) }

// rawEntry is the part of an entry the index reads.
type rawEntry struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Cwd       string          `json:"cwd"`
	Summary   string          `json:"summary"`
	Name      string          `json:"name"`
	Content   json.RawMessage `json:"content"`
	Message   *rawMessage     `json:"message"`
}

type rawMessage struct {
	Role     string          `json:"role"`
	Content  json.RawMessage `json:"content"`
	ToolName string          `json:"toolName"`
	Command  string          `json:"command"`
	Output   string          `json:"output"`
	Summary  string          `json:"summary"`
}

type rawBlock struct {
	Type      string                     `json:"type"`
	Text      string                     `json:"text"`
	Thinking  string                     `json:"thinking"`
	Name      string                     `json:"name"`
	Arguments map[string]json.RawMessage `json:"arguments"`
}

// sessionEntryTypes are the entry types pi writes after the header; a file
// without a header is still a session when its lines are of these types.
var sessionEntryTypes = map[string]bool{
	"message": true, "model_change": true, "thinking_level_change": true,
	"compaction": true, "branch_summary": true, "custom": true,
	"custom_message": true, "label": true, "session_info": true,
}

// fileState is what indexing a file carries from line to line, and from
// one Update to the next when only the appended lines are read.
type fileState struct {
	lines, entries, messages, seq int
	// physical is the number in the file of the last line read, blank
	// lines counted (lines counts only the others).
	physical                   int
	header                     bool
	session, cwd, name, prompt string
	created                    int64
}

// skipLong reports whether a line longer than the line reader's head can be
// skipped unread: tool results (file reads, build logs) and entries that
// index nothing.
func skipLong(typ, role string) bool {
	switch typ {
	case "message":
		return role == KindToolResult
	case "model_change", "thinking_level_change", "custom", "label":
		return true
	}
	return false
}

// take decodes one whole line, carries what it says about the file into
// s, and returns the row it adds to the index, if any.
func (s *fileState) take(line []byte) (row, bool) {
	var e rawEntry
	if json.Unmarshal(line, &e) != nil || e.Type == "" {
		return row{}, false
	}
	if e.Type == "session" {
		if s.lines == 1 {
			s.header = true
			s.session, s.cwd = e.ID, e.Cwd
			s.created = millis(e.Timestamp)
		}
		return row{}, false
	}
	if !s.header && !sessionEntryTypes[e.Type] {
		return row{}, false
	}
	s.entries++
	id := e.ID
	if id == "" {
		// Version 1 files have no ids; sessionfiles gives them these.
		id = fmt.Sprintf("v1-%d", s.entries)
	}
	r := row{entry: id, ts: millis(e.Timestamp), ordinal: s.messages}
	if e.Type == "message" {
		s.messages++
	}
	if !fields(&e, &r) {
		return row{}, false
	}
	switch r.kind {
	case KindName:
		s.name = r.prompt
	case KindUser:
		if s.prompt == "" {
			s.prompt = promptLine(r.prompt, firstPromptRunes)
		}
	}
	r.prompt = clean(r.prompt, capText)
	r.text = clean(r.text, capText)
	r.think = clean(r.think, capThinking)
	r.tool = clean(r.tool, capTool)
	return r, r.prompt != "" || r.text != "" || r.think != "" || r.tool != ""
}

// entryFields decodes the line of an indexed entry again, for a snippet:
// its fields cut as they were for the index, without what clean adds.
func entryFields(line []byte) (row, bool) {
	var e rawEntry
	if json.Unmarshal(line, &e) != nil {
		return row{}, false
	}
	r := row{entry: e.ID}
	if !fields(&e, &r) {
		return row{}, false
	}
	r.prompt = cut(r.prompt, capText)
	r.text = cut(r.text, capText)
	r.think = cut(r.think, capThinking)
	r.tool = cut(r.tool, capTool)
	return r, true
}

// fields puts an entry's text into r's columns, and its kind; false for an
// entry of a type that is not indexed.
func fields(e *rawEntry, r *row) bool {
	switch e.Type {
	case "message":
		if e.Message == nil {
			return false
		}
		message(r, e.Message)
	case "compaction":
		r.kind, r.text = KindCompaction, e.Summary
	case "branch_summary":
		r.kind, r.text = KindBranchSummary, e.Summary
	case "session_info":
		r.kind, r.prompt = KindName, strings.TrimSpace(e.Name)
	case "custom_message":
		r.kind, r.text = KindCustom, contentText(e.Content)
	default:
		return false
	}
	return true
}

func message(r *row, m *rawMessage) {
	r.kind = m.Role
	switch m.Role {
	case KindUser:
		r.prompt = contentText(m.Content)
	case KindAssistant:
		var blocks []rawBlock
		json.Unmarshal(m.Content, &blocks)
		var text, think, tool strings.Builder
		for _, b := range blocks {
			switch b.Type {
			case "text":
				join(&text, b.Text)
			case "thinking":
				join(&think, b.Thinking)
			case "toolCall":
				join(&tool, toolCallText(b))
			}
		}
		r.text, r.think, r.tool = text.String(), think.String(), tool.String()
	case KindToolResult:
		r.tool = m.ToolName + "\n" + cut(contentText(m.Content), capToolArg)
	case KindBash:
		r.prompt, r.tool = m.Command, cut(m.Output, capToolArg)
	case "branchSummary", "compactionSummary":
		r.text = m.Summary
	case "custom", "hookMessage":
		r.kind, r.text = KindCustom, contentText(m.Content)
	default:
		r.text = contentText(m.Content)
	}
}

// toolArgOrder puts the arguments that say most about a call first, so
// they survive the cap.
var toolArgOrder = []string{"command", "path", "file_path", "pattern", "query", "url"}

// toolCallText is a tool call's name and its string arguments.
func toolCallText(b rawBlock) string {
	keys := make([]string, 0, len(b.Arguments))
	for k := range b.Arguments {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		if i := slices.Index(toolArgOrder, k); i >= 0 {
			return i
		}
		return len(toolArgOrder)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var sb strings.Builder
	sb.WriteString(b.Name)
	for _, k := range keys {
		var v string
		if json.Unmarshal(b.Arguments[k], &v) == nil && v != "" {
			sb.WriteByte(' ')
			sb.WriteString(cut(v, capToolArg))
		}
	}
	return sb.String()
}

// contentText is a message's text: content as a string, or its text blocks.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var sb strings.Builder
	for _, b := range blocks {
		if b.Type == "text" {
			join(&sb, b.Text)
		}
	}
	return sb.String()
}

func join(sb *strings.Builder, s string) {
	if s == "" {
		return
	}
	if sb.Len() > 0 {
		sb.WriteByte('\n')
	}
	sb.WriteString(s)
}

func millis(ts string) int64 {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// cut shortens s to at most max bytes, at a rune boundary.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// promptLine collapses white space so a prompt fits a row, and cuts it to
// max runes with an ellipsis.
func promptLine(s string, max int) string {
	s = strings.Join(strings.Fields(cut(s, 4*max+64)), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
