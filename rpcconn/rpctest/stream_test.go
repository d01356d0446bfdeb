package rpctest_test

import (
	"slices"
	"strings"
	"testing"
)

func TestPromptStreamsARun(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	resp, _ := f.call("prompt", "message", "show me [[markdown]]")
	if resp["success"] != true {
		t.Fatalf("prompt = %v", resp)
	}
	recs := f.untilType("agent_settled")

	want := []string{"agent_start", "turn_start", "message_start(user)", "message_end(user)",
		"message_start(assistant)", "message_end(assistant)", "turn_end", "agent_end", "agent_settled"}
	if got := types(recs); !slices.Equal(got, want) {
		t.Fatalf("events = %v\nwant %v", got, want)
	}
	var end record
	for _, r := range recs {
		if r.typ() == "message_update" {
			if r["message"] != nil || r.get("assistantMessageEvent", "partial") != nil || r["usage"] == nil {
				t.Fatalf("a 0.9.2 message_update carries the delta and usage only: %v", r)
			}
		}
		if r.typ() == "message_end" && r.str("message", "role") == "assistant" {
			end = r
		}
	}
	text := textOf(end["message"])
	if deltaText(recs) != text || !strings.Contains(text, "```go") || !strings.Contains(text, "| Marker |") {
		t.Errorf("deltas and message_end disagree, or the markdown is missing:\n%q\n%q", deltaText(recs), text)
	}
	if end.str("message", "stopReason") != "stop" || end.get("message", "usage", "output").(float64) <= 0 {
		t.Errorf("message_end = %v", end)
	}

	if got := f.data("get_last_assistant_text")["text"]; got != text {
		t.Errorf("get_last_assistant_text = %q", got)
	}
	if msgs := f.data("get_messages")["messages"].([]any); len(msgs) != 2 {
		t.Errorf("get_messages: %d messages, want 2", len(msgs))
	}
}

func TestToolCallResultGrows(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	f.call("prompt", "message", "[[tool:bash:seq 5]]")
	recs := f.untilType("agent_settled")

	var partials []string
	var result string
	for _, r := range recs {
		switch r.typ() {
		case "tool_execution_update":
			partials = append(partials, textOf(r["partialResult"]))
		case "tool_execution_end":
			result = textOf(r["result"])
		}
		if r.event() == "toolcall_end" && r.str("assistantMessageEvent", "toolCall", "name") != "bash" {
			t.Errorf("toolcall_end = %v", r)
		}
	}
	if len(partials) < 3 {
		t.Fatalf("want several tool_execution_update events, got %q", partials)
	}
	for i := 1; i < len(partials); i++ {
		if !strings.HasPrefix(partials[i], partials[i-1]) || len(partials[i]) <= len(partials[i-1]) {
			t.Errorf("partialResult must grow: %q then %q", partials[i-1], partials[i])
		}
	}
	if result != "1\n2\n3\n4\n5\n" || partials[len(partials)-1] != result {
		t.Errorf("result %q, last partial %q", result, partials[len(partials)-1])
	}
	if n := strings.Count(strings.Join(types(recs), " "), "turn_start"); n != 2 {
		t.Errorf("a tool call takes two turns, got %d", n)
	}
}

func TestAbortAnswersAfterAgentEnd(t *testing.T) {
	t.Parallel()
	f := startFake(t, "--fake-delay=5ms")
	f.call("prompt", "message", "[[long:2000]]")
	f.until(func(r record) bool { return r.event() == "text_delta" })
	if resp, _ := f.call("prompt", "message", "again"); resp["success"] != false {
		t.Errorf("a prompt while streaming without streamingBehavior = %v", resp)
	}
	id := f.sendCommand("abort")
	recs := f.untilType("agent_settled")
	order := []string{}
	for _, r := range recs {
		switch {
		case r.typ() == "message_end" && r.str("message", "role") == "assistant":
			if r.str("message", "stopReason") != "aborted" {
				t.Errorf("aborted message_end = %v", r)
			}
			order = append(order, "message_end")
		case r.typ() == "agent_end":
			order = append(order, "agent_end")
		case r.typ() == "response" && r["id"] == id:
			order = append(order, "abort")
		}
	}
	if !slices.Equal(order, []string{"message_end", "agent_end", "abort"}) {
		t.Errorf("order = %v", order)
	}
}

func TestSteeringBecomesANewTurn(t *testing.T) {
	t.Parallel()
	f := startFake(t, "--fake-delay=2ms")
	f.call("prompt", "message", "[[long:100]]")
	f.until(func(r record) bool { return r.event() == "text_delta" })
	f.call("steer", "message", "change course")
	recs := f.untilType("agent_settled")

	var queues [][]any
	var users []string
	for _, r := range recs {
		if r.typ() == "queue_update" {
			queues = append(queues, r["steering"].([]any))
		}
		if r.typ() == "message_start" && r.str("message", "role") == "user" {
			users = append(users, textOf(r["message"]))
		}
	}
	if len(queues) != 1 || len(queues[0]) != 0 {
		t.Errorf("queue_update events after the steer response: %v, want one emptying the queue", queues)
	}
	if !slices.Equal(users, []string{"change course"}) {
		t.Errorf("user turns = %q", users)
	}
}

func TestBashStreamsWithItsID(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	resp, before := f.call("bash", "command", "echo hello there")
	if len(before) != 1 || before[0].typ() != "bash_execution_update" || before[0]["id"] != resp["id"] ||
		before[0]["delta"] != "hello there\n" {
		t.Errorf("bash_execution_update = %v", before)
	}
	if d := resp["data"].(map[string]any); d["output"] != "hello there\n" || d["exitCode"] != 0.0 || d["cancelled"] != false {
		t.Errorf("bash result = %v", d)
	}

	id := f.sendCommand("bash", "command", "sleep 60")
	// The two responses may come in either order.
	_, recs := f.call("abort_bash")
	if len(recs) == 0 {
		recs = f.until(func(r record) bool { return r["id"] == id })
	}
	if d := recs[len(recs)-1]["data"].(map[string]any); d["cancelled"] != true || d["exitCode"] != nil {
		t.Errorf("aborted bash = %v", d)
	}
}
