package rpctest_test

import (
	"slices"
	"strings"
	"testing"
)

func TestStateAndModelCommands(t *testing.T) {
	t.Parallel()
	f := startFake(t)

	st := f.data("get_state")
	if st.str("model", "id") != "thinker" || st["thinkingLevel"] != "medium" || st["isStreaming"] != false {
		t.Fatalf("get_state = %v", st)
	}
	if _, ok := st["sessionFile"]; ok {
		t.Errorf("an in-memory session has no sessionFile: %v", st)
	}
	if ms := f.data("get_available_models")["models"].([]any); len(ms) != 2 {
		t.Fatalf("want two models, got %d", len(ms))
	}

	if m := f.data("set_model", "provider", "fake", "modelId", "fast"); m["id"] != "fast" || m["reasoning"] != false {
		t.Fatalf("set_model = %v", m)
	}
	if lv := f.data("get_available_thinking_levels")["levels"]; !equalStrings(lv, "off") {
		t.Errorf("levels of a model without reasoning = %v", lv)
	}
	if resp, _ := f.call("cycle_thinking_level"); resp["success"] != true || resp["data"] != nil {
		t.Errorf("cycle_thinking_level without reasoning = %v, want success with data null", resp)
	}
	if resp, _ := f.call("set_model", "provider", "no", "modelId", "such"); resp["success"] != false || resp["error"] != "Model not found: no/such" {
		t.Errorf("set_model to an unknown model = %v", resp)
	}

	cyc := f.data("cycle_model")
	if cyc.str("model", "id") != "thinker" || cyc["thinkingLevel"] != "medium" {
		t.Errorf("cycle_model = %v, want the thinker with its level restored", cyc)
	}
	if lv := f.data("get_available_thinking_levels")["levels"]; !equalStrings(lv, "off", "minimal", "low", "medium", "high", "xhigh", "max") {
		t.Errorf("thinker levels = %v", lv)
	}
	if resp, _ := f.call("set_thinking_level", "level", "extreme"); resp["success"] != false {
		t.Errorf("an invalid level was accepted: %v", resp)
	}
	f.data("set_thinking_level", "level", "max")
	if got := f.data("cycle_thinking_level")["level"]; got != "off" {
		t.Errorf("cycling from max gave %v, want off", got)
	}

	f.data("set_session_name", "name", "my work")
	if got := f.data("get_state")["sessionName"]; got != "my work" {
		t.Errorf("sessionName = %v", got)
	}
	cmds := f.data("get_commands")["commands"].([]any)
	if len(cmds) == 0 || cmds[0].(map[string]any)["name"] != "fake-hello" {
		t.Errorf("get_commands = %v", cmds)
	}
}

func TestErrorsKeepTheProtocolShape(t *testing.T) {
	t.Parallel()
	f := startFake(t)

	resp, _ := f.call("frobnicate")
	if resp["success"] != false || resp["error"] != "Unknown command: frobnicate" || resp["command"] != "frobnicate" {
		t.Errorf("unknown command = %v", resp)
	}

	f.sendRaw("{not json\n")
	parse := f.next()
	if parse["command"] != "parse" || parse["success"] != false || parse["id"] != nil ||
		!strings.HasPrefix(parse.str("error"), "Failed to parse command: ") {
		t.Errorf("malformed line = %v", parse)
	}

	if resp, _ := f.call("get_entries", "since", "nope"); resp["success"] != false {
		t.Errorf("get_entries with an unknown cursor = %v", resp)
	}
	if resp, _ := f.call("export_html"); resp["success"] != false || !strings.Contains(resp.str("error"), "in-memory") {
		t.Errorf("export_html of an in-memory session = %v", resp)
	}
	if resp, _ := f.call("fork", "entryId", "nope"); resp["success"] != false {
		t.Errorf("fork from an unknown entry = %v", resp)
	}
}

func TestSessionCommandsAfterARun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := startFake(t, "--session-dir", dir)
	f.call("prompt", "message", "first")
	f.untilType("agent_settled")
	f.call("prompt", "message", "second [[label:mark]]")
	f.untilType("agent_settled")

	entries := f.data("get_entries")
	all := entries["entries"].([]any)
	firstID := all[0].(map[string]any)["id"].(string)
	if later := f.data("get_entries", "since", firstID)["entries"].([]any); len(later) != len(all)-1 {
		t.Errorf("since the first entry: %d entries, want %d", len(later), len(all)-1)
	}
	tree := f.data("get_tree")
	if roots := tree["tree"].([]any); len(roots) != 1 || tree["leafId"] != entries["leafId"] {
		t.Errorf("get_tree = %v roots, leaf %v (entries leaf %v)", len(roots), tree["leafId"], entries["leafId"])
	}
	if !strings.Contains(mustMarshal(t, tree), `"label":"mark"`) {
		t.Errorf("the labelled entry has no label in the tree")
	}

	forks := f.data("get_fork_messages")["messages"].([]any)
	if len(forks) != 2 {
		t.Fatalf("fork messages = %v", forks)
	}
	second := forks[1].(map[string]any)
	if got := f.data("fork", "entryId", second["entryId"]); got["text"] != "second [[label:mark]]" || got["cancelled"] != false {
		t.Errorf("fork = %v", got)
	}
	if n := f.data("get_state")["messageCount"]; n != 2.0 {
		t.Errorf("after forking above the second prompt, %v messages, want 2", n)
	}
	if st := f.data("get_session_stats"); st.get("tokens", "output").(float64) <= 0 || st["userMessages"] != 1.0 {
		t.Errorf("get_session_stats = %v", st)
	}
	out := dir + "/out.html"
	if got := f.data("export_html", "outputPath", out); got["path"] != out {
		t.Errorf("export_html = %v", got)
	}
	if got := f.data("new_session"); got["cancelled"] != false {
		t.Errorf("new_session = %v", got)
	}
	if n := f.data("get_messages")["messages"].([]any); len(n) != 0 {
		t.Errorf("a new session has %d messages", len(n))
	}
}

func equalStrings(v any, want ...string) bool {
	got, _ := v.([]any)
	var s []string
	for _, x := range got {
		str, _ := x.(string)
		s = append(s, str)
	}
	return slices.Equal(s, want)
}
