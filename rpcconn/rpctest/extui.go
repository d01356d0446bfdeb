package rpctest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// runExtensionUI plays a script's extension markers once, before the first
// reply to its message: an extension_error, fire-and-forget requests, then
// each dialog in turn. It returns one line per dialog saying how it ended.
func (a *agent) runExtensionUI(r *run, sc *script) []string {
	if sc.uiDone {
		return nil
	}
	sc.uiDone = true
	if sc.extError {
		a.emit(obj("type", "extension_error", "extensionPath", "/fake/extensions/fake-ext.ts",
			"event", "tool_call", "error", "Error: the fake extension failed on purpose"))
	}
	for _, n := range sc.notices {
		a.emit(noticeRequest(n))
	}
	var answers []string
	for _, d := range sc.dialogs {
		answers = append(answers, a.dialog(r.ctx, d))
	}
	return answers
}

func noticeRequest(n noticeSpec) object {
	req := obj("type", "extension_ui_request", "id", newUUID())
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	switch n.method {
	case "notify":
		return append(req, obj("method", "notify", "message", "A note from the fake extension",
			"notifyType", or(n.arg, "info"))...)
	case "status":
		req = append(req, obj("method", "setStatus", "statusKey", "fake")...)
		if n.arg == "clear" {
			return req // an omitted statusText clears the entry
		}
		return req.with("statusText", or(n.arg, "Fake status: busy"))
	case "widget":
		req = append(req, obj("method", "setWidget", "widgetKey", "fake")...)
		if n.arg == "clear" {
			return req
		}
		placement := "aboveEditor"
		if n.arg == "below" {
			placement = "belowEditor"
		}
		return append(req, obj("widgetLines", []string{"--- Fake widget ---", "Line 1", "Line 2"},
			"widgetPlacement", placement)...)
	case "title":
		return append(req, obj("method", "setTitle", "title", "KnightCode (fake) - "+or(n.arg, "demo"))...)
	default: // editor-text
		return append(req, obj("method", "set_editor_text", "text", or(n.arg, "Text from the fake extension"))...)
	}
}

func dialogRequest(id string, d dialogSpec) object {
	req := obj("type", "extension_ui_request", "id", id, "method", d.method)
	switch d.method {
	case "select":
		req = append(req, obj("title", "Pick a fruit", "options", []string{"apple", "banana", "cherry"})...)
	case "confirm":
		req = append(req, obj("title", "Allow the fake command?", "message", "The fake agent wants to run `rm -rf build/`.")...)
	case "input":
		req = append(req, obj("title", "Enter a value", "placeholder", "type something...")...)
	case "editor":
		req = append(req, obj("title", "Edit some text", "prefill", "Line 1\nLine 2\nLine 3")...)
	}
	if d.timeout > 0 {
		req = req.with("timeout", d.timeout)
	}
	return req
}

// dialog asks and waits for the matching extension_ui_response, the timeout
// or the end of ctx. stdin keeps being read meanwhile: only this goroutine
// waits.
func (a *agent) dialog(ctx context.Context, d dialogSpec) string {
	id := newUUID()
	ch := make(chan json.RawMessage, 1)
	a.mu.Lock()
	a.dialogs[id] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.dialogs, id)
		a.mu.Unlock()
	}()
	a.emit(dialogRequest(id, d))
	var timeout <-chan time.Time
	if d.timeout > 0 {
		t := time.NewTimer(time.Duration(d.timeout) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case raw := <-ch:
		return "answered: " + answerText(raw)
	case <-timeout:
		if d.method == "confirm" {
			return "timed out: false"
		}
		return "timed out: undefined"
	case <-ctx.Done():
		return "cancelled: the run was aborted"
	}
}

// answerText is the response without its routing fields, keys sorted, e.g.
// {"confirmed":true}.
func answerText(raw json.RawMessage) string {
	var m map[string]any
	json.Unmarshal(raw, &m)
	delete(m, "type")
	delete(m, "id")
	return string(mustJSON(m))
}

// answerDialog routes an extension_ui_response to its waiting dialog. Like
// the agent, it answers nothing, and ignores ids it does not know.
func (a *agent) answerDialog(c *command) {
	var id string
	json.Unmarshal(c.ID, &id)
	a.mu.Lock()
	ch, ok := a.dialogs[id]
	delete(a.dialogs, id)
	a.mu.Unlock()
	if !ok {
		fmt.Fprintf(a.stderr, "fake-knightcode: extension_ui_response for unknown dialog %q ignored\n", id)
		return
	}
	ch <- c.raw
}
