package rpctest_test

import (
	"testing"
)

func TestOlderAgent(t *testing.T) {
	t.Parallel()
	f := startFake(t, "--fake-older")

	for _, cmd := range []string{"clear_queue", "get_tree", "get_entries", "get_available_thinking_levels"} {
		f.sendCommand(cmd)
		r := f.next()
		if r.typ() != "response" || r["id"] != nil || r["success"] != false || r["error"] != "Unknown command: "+cmd {
			t.Errorf("%s on the older agent = %v", cmd, r)
		}
	}

	f.call("prompt", "message", "hi")
	recs := f.untilType("agent_end")
	for _, r := range recs {
		if r.typ() == "message_update" && (r["message"] == nil || r.get("assistantMessageEvent", "partial") == nil) {
			t.Fatalf("the older message_update repeats the message: %v", r)
		}
	}
	// No agent_settled: the next record is the next command's response.
	id := f.sendCommand("get_state")
	if r := f.next(); r["id"] != id {
		t.Errorf("after agent_end came %v", r)
	}

	// "max" is unknown to the older agent: it says yes, sets off, and tells.
	_, before := f.call("set_thinking_level", "level", "max")
	if len(before) != 1 || before[0].typ() != "thinking_level_changed" || before[0]["level"] != "off" {
		t.Errorf("before the set_thinking_level response: %v", before)
	}
	if lv := f.data("get_state")["thinkingLevel"]; lv != "off" {
		t.Errorf("thinkingLevel = %v, want off", lv)
	}
	// "xhigh" is known, but a model without a thinkingLevelMap lacks it:
	// the nearest level it has is taken, as pi 0.73.1 does.
	f.call("set_thinking_level", "level", "xhigh")
	if lv := f.data("get_state")["thinkingLevel"]; lv != "high" {
		t.Errorf("thinkingLevel after xhigh = %v, want high", lv)
	}
	_, before = f.call("set_session_name", "name", "n")
	if len(before) != 1 || before[0].typ() != "session_info_changed" || before[0]["name"] != "n" {
		t.Errorf("before the set_session_name response: %v", before)
	}
}
