package rpctest

import (
	"fmt"
	"strings"
	"time"
)

// toolOutcome is what the next turn's reply reports about a tool call.
type toolOutcome struct {
	name, arg string
	exitCode  int
	lines     int
	isError   bool
}

func (o toolOutcome) summary() string {
	if o.name == "bash" {
		return fmt.Sprintf("Done: `%s` exited with code %d after %d line(s) of output.", o.arg, o.exitCode, o.lines)
	}
	return fmt.Sprintf("Done: the %s tool finished (error: %v).", o.name, o.isError)
}

func toolArgs(t toolSpec) map[string]any {
	switch t.name {
	case "bash":
		return map[string]any{"command": t.arg}
	case "read", "ls":
		return map[string]any{"path": t.arg}
	case "write":
		return map[string]any{"path": t.arg, "content": fakeWriteContent}
	case "edit":
		path, _ := strings.CutSuffix(t.arg, ":nodiff")
		return map[string]any{"path": path, "edits": []any{
			map[string]any{"oldText": fakeEditOld, "newText": fakeEditNew},
		}}
	}
	return map[string]any{"input": t.arg}
}

// The fake's edit replaces one function of a pretend file; its result
// carries the diff as the agent's edit tool makes it (details.diff), the
// file's own line numbers and context included. An edit whose ARG ends in
// ":nodiff" returns no diff, as an agent that does not report one.
const (
	fakeEditOld  = "func stripes() int {\n\treturn 3\n}\n"
	fakeEditNew  = "func stripes() int {\n\t// counted again\n\treturn 4\n}\n"
	fakeEditDiff = "    ...\n" +
		"  8 \n" +
		"  9 // stripes is how many stripes a zebra has here.\n" +
		" 10 func stripes() int {\n" +
		"-11 \treturn 3\n" +
		"+11 \t// counted again\n" +
		"+12 \treturn 4\n" +
		" 13 }\n" +
		" 14 \n" +
		" 15 func mane() string { return \"black\" }\n" +
		"    ..."
	fakeWriteContent = "# Zebra notes\n\n- stripes: 4\n- mane: black\n- checked by the fake agent\n"
)

// toolResult is what a tool other than bash returns: its text and details.
func toolResult(call *toolCallContent) (string, object) {
	path := fmt.Sprint(call.Arguments["path"])
	switch call.Name {
	case "edit":
		text := fmt.Sprintf("Successfully replaced 1 block(s) in %s.", path)
		if call.noDiff {
			return text, nil
		}
		return text, obj("diff", fakeEditDiff, "firstChangedLine", 11)
	case "write":
		return fmt.Sprintf("Successfully wrote %d bytes to %s", len(fakeWriteContent), path), nil
	}
	return fmt.Sprintf("fake %s result for %v\n", call.Name, call.Arguments), obj("truncation", nil, "fullOutputPath", nil)
}

// runTools executes the message's tool calls in order, each with a start,
// several updates whose partialResult grows, an end and a toolResult message.
func (a *agent) runTools(r *run, am *assistantMessage) ([]any, []toolOutcome) {
	results := []any{} // turn_end's toolResults is [] without tools, never null
	var outcomes []toolOutcome
	for _, c := range am.Content {
		call, ok := c.(*toolCallContent)
		if !ok {
			continue
		}
		res, o := a.runTool(r, call)
		results = append(results, res)
		outcomes = append(outcomes, o)
		if r.ctx.Err() != nil {
			break
		}
	}
	return results, outcomes
}

func (a *agent) runTool(r *run, call *toolCallContent) (toolResultMessage, toolOutcome) {
	began := time.Now()
	a.emit(obj("type", "tool_execution_start", "toolCallId", call.ID, "toolName", call.Name, "args", call.Arguments))
	arg := fmt.Sprint(call.Arguments["command"])
	o := toolOutcome{name: call.Name, arg: arg}
	var output string
	details := obj("truncation", nil, "fullOutputPath", nil)
	if call.Name == "bash" {
		sr := fakeShell(arg, a.cwd)
		output, o.exitCode = sr.output, sr.exitCode
		if !sleepCtx(r.ctx, sr.wait) {
			output = ""
		}
	} else {
		o.arg = fmt.Sprint(call.Arguments["path"])
		output, details = toolResult(call)
	}
	o.lines = strings.Count(output, "\n")
	if o.exitCode != 0 {
		output += fmt.Sprintf("\nCommand exited with code %d", o.exitCode)
		o.isError = true
	}
	update := func(partial object) {
		a.emit(obj("type", "tool_execution_update", "toolCallId", call.ID, "toolName", call.Name,
			"args", call.Arguments, "partialResult", partial))
	}
	if a.opts.Older {
		update(obj("content", []any{}))
	}
	var sofar strings.Builder
	for _, piece := range growingPieces(output) {
		if !sleepCtx(r.ctx, a.opts.Delay) {
			sofar.WriteString("\n\nCommand aborted")
			o.isError = true
			break
		}
		sofar.WriteString(piece)
		update(obj("content", []any{textContent{"text", sofar.String()}}, "details", details))
	}
	content := []any{textContent{"text", sofar.String()}}
	end := obj("type", "tool_execution_end", "toolCallId", call.ID, "toolName", call.Name,
		"result", obj("content", content, "details", details), "isError", o.isError)
	msg := toolResultMessage{Role: "toolResult", ToolCallID: call.ID, ToolName: call.Name,
		Content: content, Details: details, IsError: o.isError, Timestamp: nowMillis()}
	if !a.opts.Older {
		// pi 1.6 gives the run's own time, in the event and the message.
		msg.DurationMs = time.Since(began).Milliseconds()
		end = end.with("durationMs", msg.DurationMs)
	}
	a.emit(end)
	a.emit(obj("type", "message_start", "message", msg))
	a.mu.Lock()
	a.sess.appendMessage(msg)
	a.mu.Unlock()
	a.emit(obj("type", "message_end", "message", msg))
	return msg, o
}

// growingPieces cuts tool output into at least three and at most about
// twenty pieces, so a client always sees partialResult grow a few times.
func growingPieces(output string) []string {
	lines := strings.SplitAfter(output, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 3 {
		return splitRunes(output, 3)
	}
	per := (len(lines) + 19) / 20
	var pieces []string
	for i := 0; i < len(lines); i += per {
		pieces = append(pieces, strings.Join(lines[i:min(i+per, len(lines))], ""))
	}
	return pieces
}
