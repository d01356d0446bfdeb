package llmserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// chunk is a streamed chunk as a client decodes it.
type chunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

// stream is a whole SSE response taken apart.
type stream struct {
	chunks    []chunk
	done      bool // saw data: [DONE]
	reasoning []string
	text      []string
	finish    string
}

func userRequest(text string) string {
	b, _ := json.Marshal(map[string]any{
		"model":          "local-reasoner",
		"stream":         true,
		"stream_options": map[string]bool{"include_usage": true},
		"max_tokens":     4096,
		"messages": []map[string]any{
			{"role": "system", "content": "You are a test."},
			{"role": "user", "content": text},
		},
	})
	return string(b)
}

func post(t *testing.T, ctx context.Context, s *Server, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readStream checks the SSE framing strictly: only "data: " lines, each
// followed by a blank line, nothing after [DONE].
func readStream(t *testing.T, r io.Reader) stream {
	t.Helper()
	var st stream
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			break
		}
		if err != nil {
			t.Fatalf("read SSE: %v", err)
		}
		if st.done {
			t.Fatalf("data after [DONE]: %q", line)
		}
		payload, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "data: ")
		if !ok {
			t.Fatalf("not an SSE data line: %q", line)
		}
		if blank, _ := br.ReadString('\n'); blank != "\n" {
			t.Fatalf("SSE event not followed by a blank line: %q", blank)
		}
		if payload == "[DONE]" {
			st.done = true
			continue
		}
		var c chunk
		if err := json.Unmarshal([]byte(payload), &c); err != nil {
			t.Fatalf("bad chunk %q: %v", payload, err)
		}
		st.chunks = append(st.chunks, c)
		for _, ch := range c.Choices {
			if ch.Delta.ReasoningContent != "" {
				st.reasoning = append(st.reasoning, ch.Delta.ReasoningContent)
			}
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				st.text = append(st.text, *ch.Delta.Content)
			}
			if ch.FinishReason != nil {
				st.finish = *ch.FinishReason
			}
		}
	}
	return st
}

func streamFor(t *testing.T, s *Server, prompt string) stream {
	t.Helper()
	resp := post(t, context.Background(), s, userRequest(prompt))
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q", ct)
	}
	return readStream(t, resp.Body)
}

// checkEnvelope checks what every stream shares: the role chunk first, one
// id, a finish reason, a usage chunk and [DONE].
func checkEnvelope(t *testing.T, st stream, finish string) {
	t.Helper()
	if !st.done {
		t.Error("stream did not end with data: [DONE]")
	}
	if len(st.chunks) < 3 {
		t.Fatalf("only %d chunks", len(st.chunks))
	}
	first := st.chunks[0]
	if len(first.Choices) != 1 || first.Choices[0].Delta.Role != "assistant" {
		t.Errorf("first chunk is not the assistant role chunk: %+v", first)
	}
	for i, c := range st.chunks {
		if c.ID != first.ID || c.Object != "chat.completion.chunk" || c.Model != "local-reasoner" {
			t.Errorf("chunk %d: id %q object %q model %q", i, c.ID, c.Object, c.Model)
		}
	}
	if st.finish != finish {
		t.Errorf("finish_reason = %q, want %q", st.finish, finish)
	}
	last := st.chunks[len(st.chunks)-1]
	if last.Usage == nil || len(last.Choices) != 0 {
		t.Fatalf("last chunk is not a usage chunk: %+v", last)
	}
	u := last.Usage
	if u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Errorf("usage = %+v", *u)
	}
	for _, c := range st.chunks[:len(st.chunks)-1] {
		if c.Usage != nil {
			t.Error("usage before the final chunk")
		}
	}
}

func joinText(parts []string) string { return strings.Join(parts, "") }

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
