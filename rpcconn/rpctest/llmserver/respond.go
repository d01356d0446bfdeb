package llmserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// streamReply writes r as SSE chunks. It stops as soon as ctx ends, which
// net/http arranges when the client goes away, so an aborted agent run never
// leaves a stream sleeping on the server.
func streamReply(ctx context.Context, w http.ResponseWriter, req Request, r reply, id string) error {
	flusher, _ := w.(http.Flusher)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)

	base := completion{ID: id, Object: "chat.completion.chunk", Created: time.Now().Unix(), Model: req.Model}
	send := func(c completion) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := marshal(c)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		return nil
	}
	sendDelta := func(d delta, finish *string) error {
		c := base
		c.Choices = []choice{{Delta: &d, FinishReason: finish}}
		return send(c)
	}
	// Every delta after the first waits, so [[slow:MS]] leaves time to act
	// mid-stream while the first chunk still tells the client the reply began.
	next := func(d delta) error {
		if err := pause(ctx, r.delay); err != nil {
			return err
		}
		return sendDelta(d, nil)
	}

	empty := ""
	if err := sendDelta(delta{Role: "assistant", Content: &empty}, nil); err != nil {
		return err
	}
	for _, t := range r.reasoning {
		if err := next(delta{ReasoningContent: t}); err != nil {
			return err
		}
	}
	for _, t := range r.text {
		if err := next(delta{Content: &t}); err != nil {
			return err
		}
	}
	if r.tool != nil {
		head := toolCallDelta{Index: 0, ID: r.tool.id, Type: "function", Function: functionCall{Name: r.tool.name}}
		if err := next(delta{ToolCalls: []toolCallDelta{head}}); err != nil {
			return err
		}
		for _, frag := range r.tool.args {
			if err := next(delta{ToolCalls: []toolCallDelta{{Index: 0, Function: functionCall{Arguments: frag}}}}); err != nil {
				return err
			}
		}
	}
	finish := r.finishReason()
	if err := sendDelta(delta{}, &finish); err != nil {
		return err
	}
	if req.IncludeUsage {
		c := base
		c.Choices = []choice{}
		c.Usage = usageFor(req, r)
		if err := send(c); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprint(w, "data: [DONE]\n\n"); err != nil {
		return err
	}
	if flusher != nil {
		flusher.Flush()
	}
	return nil
}

// writeCompletion answers a request without "stream": true in one object.
func writeCompletion(w http.ResponseWriter, req Request, r reply, id string) error {
	msg := message{Role: "assistant", ReasoningContent: strings.Join(r.reasoning, "")}
	if len(r.text) > 0 || r.tool == nil {
		text := strings.Join(r.text, "")
		msg.Content = &text
	}
	if r.tool != nil {
		msg.ToolCalls = []toolCallDelta{{
			Index: 0, ID: r.tool.id, Type: "function",
			Function: functionCall{Name: r.tool.name, Arguments: strings.Join(r.tool.args, "")},
		}}
	}
	finish := r.finishReason()
	c := completion{
		ID: id, Object: "chat.completion", Created: time.Now().Unix(), Model: req.Model,
		Choices: []choice{{Message: &msg, FinishReason: &finish}},
		Usage:   usageFor(req, r),
	}
	return writeJSON(w, http.StatusOK, c)
}

func writeError(w http.ResponseWriter, status int, text string) error {
	kind := "server_error"
	if status < 500 {
		kind = "invalid_request_error"
	}
	return writeJSON(w, status, errorBody{Error: errorDetail{Message: text, Type: kind, Code: status}})
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = w.Write(append(b, '\n'))
	return err
}

// marshal leaves <, > and & alone: shell commands and markdown are full of
// them, and \u003e in a recorded stream only gets in a reader's way.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// usageFor makes up plausible token counts: about four bytes of request per
// prompt token, one delta per completion token.
func usageFor(req Request, r reply) *usage {
	prompt := max(1, len(req.Raw)/4)
	completion := r.deltaCount()
	return &usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
}

func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
