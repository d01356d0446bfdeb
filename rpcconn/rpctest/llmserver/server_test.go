package llmserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestListensOnLoopbackOnly(t *testing.T) {
	s := Start(t)
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" || u.Path != "/v1" {
		t.Errorf("URL = %q", s.URL())
	}
	if host := s.ln.Addr().String(); !strings.HasPrefix(host, "127.0.0.1:") {
		t.Errorf("listening on %s", host)
	}
}

func TestModels(t *testing.T) {
	s := Start(t)
	resp, err := http.Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || list.Object != "list" || len(list.Data) < 2 || list.Data[0].ID != "local-reasoner" {
		t.Errorf("models = %d %+v", resp.StatusCode, list)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("GET /v1/models was logged (%d requests)", n)
	}
}

func TestNonStreaming(t *testing.T) {
	s := Start(t)
	for _, tc := range []struct {
		prompt, finish string
		tool           bool
	}{
		{"[[think]] [[markdown]]", "stop", false},
		{"[[bash:echo hi]]", "tool_calls", true},
		{"[[markdown]] [[length]]", "length", false},
	} {
		body := strings.Replace(userRequest(tc.prompt), `"stream":true`, `"stream":false`, 1)
		resp := post(t, t.Context(), s, body)
		var c struct {
			Object  string `json:"object"`
			Choices []struct {
				Message struct {
					Role             string  `json:"role"`
					Content          *string `json:"content"`
					ReasoningContent string  `json:"reasoning_content"`
					ToolCalls        []struct {
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"message"`
				FinishReason string `json:"finish_reason"`
			} `json:"choices"`
			Usage struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || c.Object != "chat.completion" || len(c.Choices) != 1 || c.Usage.CompletionTokens == 0 {
			t.Fatalf("%s: %d %+v", tc.prompt, resp.StatusCode, c)
		}
		m := c.Choices[0].Message
		if c.Choices[0].FinishReason != tc.finish || m.Role != "assistant" {
			t.Errorf("%s: finish %q role %q", tc.prompt, c.Choices[0].FinishReason, m.Role)
		}
		if tc.tool {
			if m.Content != nil || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Arguments != `{"command":"echo hi"}` {
				t.Errorf("tool call message = %+v", m)
			}
		} else if m.Content == nil || *m.Content != markdownReply || (strings.Contains(tc.prompt, "[[think]]") && m.ReasoningContent != thinkingText) {
			t.Errorf("text message = %+v", m)
		}
	}
}

// streamWait bounds the waits below for a handler to end. The streams
// they cut pause ten minutes between deltas, so a handler that ends
// within it noticed the cut during a pause; no clock is needed.
const streamWait = 2 * time.Minute

// The agent aborts by dropping the connection; the server must notice at
// once even while it waits between deltas.
func TestClientDisconnectStopsStream(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithCancel(t.Context())
	resp := post(t, ctx, s, userRequest("[[slow:600000]] [[long:200]]"))
	first, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(first, "data: ") {
		t.Fatalf("first line %q, %v", first, err)
	}
	if s.Active() != 1 {
		t.Fatalf("Active() = %d while streaming", s.Active())
	}
	start := time.Now()
	cancel()
	waitCtx, done := context.WithTimeout(t.Context(), streamWait)
	defer done()
	if err := s.WaitIdle(waitCtx); err != nil {
		t.Fatalf("the handler did not end within %v of the disconnect, in a ten-minute pause: %v (Active() = %d)", streamWait, err, s.Active())
	}
	t.Logf("the handler noticed the disconnect after %v", time.Since(start))
}

func TestCloseCutsOpenStreams(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	resp := post(t, t.Context(), s, userRequest("[[slow:600000]] [[long:100]]"))
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(streamWait):
		t.Fatalf("Close did not return within %v: it waits for a stream in a ten-minute pause (Active() = %d)", streamWait, s.Active())
	}
	t.Logf("Close took %v", time.Since(start))
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestRequestLog(t *testing.T) {
	s := Start(t)
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	if err := s.SetLogFile(logPath); err != nil {
		t.Fatal(err)
	}

	waited := make(chan []Request)
	go func() {
		reqs, err := s.WaitRequests(t.Context(), 2)
		if err != nil {
			t.Error(err)
		}
		waited <- reqs
	}()

	body := mustJSON(t, map[string]any{
		"model": "local-reasoner", "stream": true,
		"max_completion_tokens": 1234,
		"reasoning_effort":      "high",
		"chat_template_kwargs":  map[string]bool{"enable_thinking": true},
		"tools":                 []map[string]any{{"type": "function", "function": map[string]any{"name": "bash"}}},
		"messages": []map[string]any{
			{"role": "system", "content": "sys"},
			{"role": "user", "content": []map[string]any{
				{"type": "text", "text": "what is in"},
				{"type": "image_url", "image_url": map[string]string{"url": "data:image/png;base64,AAAA"}},
				{"type": "text", "text": "this picture? [[markdown]]"},
			}},
		},
	})
	readStream(t, post(t, t.Context(), s, body).Body)
	readStream(t, post(t, t.Context(), s, userRequest("second")).Body)

	select {
	case reqs := <-waited:
		if len(reqs) != 2 {
			t.Fatalf("WaitRequests returned %d", len(reqs))
		}
	case <-time.After(time.Minute):
		t.Fatal("WaitRequests did not return within a minute of the second request's end")
	}

	reqs := s.Requests()
	r := reqs[0]
	if r.Seq != 1 || reqs[1].Seq != 2 || r.Model != "local-reasoner" || !r.Stream || !r.IncludeUsage {
		t.Errorf("basics: %+v", r)
	}
	if r.MaxTokens != 1234 || r.MaxTokensField != "max_completion_tokens" || reqs[1].MaxTokensField != "max_tokens" {
		t.Errorf("max tokens %d via %q", r.MaxTokens, r.MaxTokensField)
	}
	if r.ReasoningEffort != "high" || string(r.Reasoning["reasoning_effort"]) != `"high"` || r.Reasoning["chat_template_kwargs"] == nil {
		t.Errorf("reasoning %q %v", r.ReasoningEffort, r.Reasoning)
	}
	if !r.HasImages || r.Messages[1].Images != 1 || reqs[1].HasImages {
		t.Errorf("images: %+v", r.Messages)
	}
	if got := r.LastUserText(); got != "what is in\nthis picture? [[markdown]]" {
		t.Errorf("LastUserText = %q", got)
	}
	if r.Reply != "markdown" || len(r.Tools) != 1 || r.Tools[0] != "bash" || !json.Valid(r.Raw) {
		t.Errorf("reply %q tools %v", r.Reply, r.Tools)
	}

	// Requests returns a copy: appending to it must not touch the log.
	_ = append(reqs[:1], Request{Model: "intruder"})
	if s.Requests()[1].Model == "intruder" {
		t.Error("Requests shares its backing array")
	}

	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("log file has %d lines", len(lines))
	}
	var fromFile Request
	if err := json.Unmarshal([]byte(lines[0]), &fromFile); err != nil {
		t.Fatal(err)
	}
	if fromFile.Seq != 1 || !fromFile.HasImages || fromFile.Reply != "markdown" || fromFile.MaxTokens != 1234 {
		t.Errorf("logged line = %+v", fromFile)
	}
}

func TestWaitRequestsTimesOut(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.WaitRequests(ctx, 1); err == nil {
		t.Error("WaitRequests returned without a request")
	}
}

func TestBadRequest(t *testing.T) {
	s := Start(t)
	resp := post(t, t.Context(), s, "{not json")
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status = %d", resp.StatusCode)
	}
	if reqs := s.Requests(); len(reqs) != 1 || reqs[0].Reply != "bad-request" {
		t.Errorf("log = %+v", reqs)
	}
}
