package llmserver

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDefaultReply(t *testing.T) {
	s := Start(t)
	st := streamFor(t, s, "hello there")
	checkEnvelope(t, st, "stop")
	if got := joinText(st.text); got != shortReply {
		t.Errorf("text = %q, want %q", got, shortReply)
	}
	if len(st.text) < 3 {
		t.Errorf("only %d text deltas; the reply should stream", len(st.text))
	}
	if len(st.reasoning) != 0 {
		t.Errorf("unexpected reasoning %q", st.reasoning)
	}
}

func TestMarkdownReply(t *testing.T) {
	s := Start(t)
	st := streamFor(t, s, "show me [[markdown]] please")
	checkEnvelope(t, st, "stop")
	text := joinText(st.text)
	for _, want := range []string{"# Streaming check\n", "```go\n", "| Knight | L-shape | 3 |", "- first item\n", "**markdown**"} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown reply lacks %q", want)
		}
	}
	if len(st.text) < 40 {
		t.Errorf("only %d deltas; want many small ones", len(st.text))
	}
}

func TestThinkReply(t *testing.T) {
	s := Start(t)
	st := streamFor(t, s, "[[think]] why?")
	checkEnvelope(t, st, "stop")
	if joinText(st.reasoning) != thinkingText || len(st.reasoning) < 3 {
		t.Errorf("reasoning = %q", st.reasoning)
	}
	if joinText(st.text) != shortReply {
		t.Errorf("text = %q", joinText(st.text))
	}
	// All reasoning must come before any text, as a thinking model sends it.
	sawText := false
	for _, c := range st.chunks {
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				sawText = true
			}
			if ch.Delta.ReasoningContent != "" && sawText {
				t.Fatal("reasoning after text")
			}
		}
	}
}

func TestBashToolCallSequence(t *testing.T) {
	s := Start(t)
	command := `ls -la "dir" | grep x > out && echo ünïcode`
	st := streamFor(t, s, "run it [[bash:"+command+"]]")
	checkEnvelope(t, st, "tool_calls")
	if len(st.text) != 0 {
		t.Errorf("tool call reply has text %q", st.text)
	}
	var calls []int // indexes of chunks with tool_calls
	for i, c := range st.chunks {
		if len(c.Choices) == 1 && len(c.Choices[0].Delta.ToolCalls) > 0 {
			calls = append(calls, i)
		}
	}
	if len(calls) < 3 {
		t.Fatalf("want a head and several argument deltas, got %d tool_calls chunks", len(calls))
	}
	head := st.chunks[calls[0]].Choices[0].Delta.ToolCalls[0]
	if head.ID == "" || head.Type != "function" || head.Function.Name != "bash" || head.Function.Arguments != "" || head.Index != 0 {
		t.Errorf("head delta = %+v", head)
	}
	var args strings.Builder
	for _, i := range calls[1:] {
		d := st.chunks[i].Choices[0].Delta.ToolCalls[0]
		if d.ID != "" || d.Function.Name != "" || d.Index != 0 {
			t.Errorf("argument delta repeats id or name: %+v", d)
		}
		args.WriteString(d.Function.Arguments)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(args.String()), &got); err != nil {
		t.Fatalf("arguments %q: %v", args.String(), err)
	}
	if got["command"] != command || len(got) != 1 {
		t.Errorf("arguments = %v, want command %q", got, command)
	}
	// The finish chunk comes after every argument delta.
	if fin := st.chunks[len(st.chunks)-2]; fin.Choices[0].FinishReason == nil || calls[len(calls)-1] > len(st.chunks)-3 {
		t.Errorf("finish chunk misplaced: %+v", fin)
	}
	if reqs := s.Requests(); reqs[0].Reply != "bash" {
		t.Errorf("logged reply %q", reqs[0].Reply)
	}
}

// TestAnyToolCall: [[tool:NAME:JSON]] calls NAME with the JSON as written,
// in several argument deltas; JSON that does not parse is a 400.
func TestAnyToolCall(t *testing.T) {
	s := Start(t)
	args := `{"path":"zebra.txt","edits":[{"oldText":"black\n","newText":"white\n"}]}`
	st := streamFor(t, s, "fix it [[tool:edit:"+args+"]]")
	checkEnvelope(t, st, "tool_calls")
	var name, got strings.Builder
	deltas := 0
	for _, c := range st.chunks {
		if len(c.Choices) == 1 && len(c.Choices[0].Delta.ToolCalls) > 0 {
			d := c.Choices[0].Delta.ToolCalls[0]
			name.WriteString(d.Function.Name)
			got.WriteString(d.Function.Arguments)
			deltas++
		}
	}
	if name.String() != "edit" || got.String() != args || deltas < 4 {
		t.Fatalf("call %q with %q in %d deltas", name.String(), got.String(), deltas)
	}
	if resp := post(t, t.Context(), s, userRequest(`[[tool:edit:{"path":]]`)); resp.StatusCode != 400 {
		t.Fatalf("bad JSON answered %d", resp.StatusCode)
	}
}

func TestToolResultReply(t *testing.T) {
	s := Start(t)
	body := mustJSON(t, map[string]any{
		"model": "local-reasoner", "stream": true,
		"messages": []map[string]any{
			{"role": "user", "content": "[[bash:seq 1 3]]"},
			{"role": "assistant", "content": nil, "tool_calls": []map[string]any{
				{"id": "call_1", "type": "function", "function": map[string]string{"name": "bash", "arguments": `{"command":"seq 1 3"}`}},
			}},
			{"role": "tool", "tool_call_id": "call_1", "content": "1\n2\n3\n"},
		},
	})
	resp := post(t, t.Context(), s, body)
	st := readStream(t, resp.Body)
	if got := joinText(st.text); got != "Tool output was: 1 2 3" {
		t.Errorf("text = %q", got)
	}
	if st.finish != "stop" {
		t.Errorf("finish = %q", st.finish)
	}
	req := s.Requests()[0]
	if req.Reply != "tool-result" || req.LastMessage().ToolCallID != "call_1" {
		t.Errorf("logged %+v", req)
	}
	if tc := req.Messages[1].ToolCalls; len(tc) != 1 || tc[0].Name != "bash" || tc[0].ID != "call_1" {
		t.Errorf("replayed tool calls = %+v", tc)
	}
}

func TestLongReply(t *testing.T) {
	s := Start(t)
	for _, n := range []int{1, 37, 600} {
		st := streamFor(t, s, "[[long:"+strconv.Itoa(n)+"]] write a long answer")
		checkEnvelope(t, st, "stop")
		if len(st.text) != n {
			t.Errorf("long:%d gave %d deltas", n, len(st.text))
		}
		text := joinText(st.text)
		if strings.Count(text, "```")%2 != 0 {
			t.Errorf("long:%d leaves a code block open", n)
		}
		if n == 600 && (strings.Count(text, "```go") < 5 || strings.Count(text, "## Part") < 5 || len(text) < 10000) {
			t.Errorf("long:600 is not a long document: %d bytes", len(text))
		}
	}
}

func TestSlowReply(t *testing.T) {
	s := Start(t)
	start := time.Now()
	st := streamFor(t, s, "[[slow:40]]")
	elapsed := time.Since(start)
	checkEnvelope(t, st, "stop")
	if min := time.Duration(len(st.text)) * 40 * time.Millisecond; elapsed < min {
		t.Errorf("%d deltas took %v, want at least %v", len(st.text), elapsed, min)
	}
}

func TestErrorReply(t *testing.T) {
	s := Start(t)
	resp := post(t, t.Context(), s, userRequest("[[error:500]] [[markdown]]"))
	if resp.StatusCode != 500 {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    int    `json:"code"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body.Error.Message == "" || body.Error.Code != 500 || body.Error.Type != "server_error" {
		t.Errorf("error body = %+v", body)
	}
}

func TestParseMarkers(t *testing.T) {
	m := parseMarkers("x [[slow:25]] [[think]] [[bash:echo a]b]] [[long:oops]] [[error:9999]] [[nope]]")
	if m.slow != 25*time.Millisecond || !m.think || !m.hasBash || m.bash != "echo a]b" || m.long != 1 || m.status != 599 {
		t.Errorf("parsed %+v", m)
	}
}

func TestSplitKeepsEveryByte(t *testing.T) {
	for _, s := range []string{"", "one", "  lead and trail  ", markdownReply, "é ü 日本 語"} {
		if got := strings.Join(splitWords(s, 2), ""); got != s {
			t.Errorf("splitWords lost bytes: %q", got)
		}
		for _, p := range splitRunes(s, 3) {
			if !json.Valid([]byte(mustJSON(t, p))) || strings.ContainsRune(p, '\uFFFD') {
				t.Errorf("splitRunes cut a rune: %q", p)
			}
		}
	}
}
