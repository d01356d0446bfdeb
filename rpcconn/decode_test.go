package rpcconn

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func decodeEvent(t *testing.T, line string) Event {
	t.Helper()
	resp, ev, err := DecodeRecord([]byte(line))
	if err != nil {
		t.Fatalf("DecodeRecord(%s): %v", line, err)
	}
	if resp != nil {
		t.Fatalf("DecodeRecord(%s): got a response", line)
	}
	return ev
}

func TestDecodeEveryEventKind(t *testing.T) {
	cases := []struct {
		line string
		want Event
	}{
		{`{"type":"agent_start"}`, &AgentStart{}},
		{`{"type":"agent_end","messages":[{"role":"user","content":"hi"}],"willRetry":true}`,
			&AgentEnd{Messages: json.RawMessage(`[{"role":"user","content":"hi"}]`), WillRetry: true}},
		{`{"type":"agent_settled"}`, &AgentSettled{}},
		{`{"type":"turn_start"}`, &TurnStart{}},
		{`{"type":"turn_end","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop"},"toolResults":[]}`,
			&TurnEnd{Message: Message{Role: "assistant", Content: Content{{Type: "text", Text: "ok"}}, StopReason: "stop"}, ToolResults: []Message{}}},
		{`{"type":"message_start","message":{"role":"user","content":"hello","timestamp":5}}`,
			&MessageStart{Message: Message{Role: "user", Content: Content{{Type: "text", Text: "hello"}}, Timestamp: 5}}},
		{`{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"error","errorMessage":"Connection error."}}`,
			&MessageEnd{Message: Message{Role: "assistant", Content: Content{}, StopReason: "error", ErrorMessage: "Connection error."}}},
		{`{"type":"bash_execution_update","id":"kc-3","delta":"total 48\n"}`, &BashExecutionUpdate{ID: "kc-3", Delta: "total 48\n"}},
		{`{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{"command":"ls"}}`,
			&ToolExecutionStart{ToolCallID: "c1", ToolName: "bash", Args: json.RawMessage(`{"command":"ls"}`)}},
		{`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","args":{},"partialResult":{"content":[{"type":"text","text":"a"}],"details":{"fullOutputPath":null}}}`,
			&ToolExecutionUpdate{ToolCallID: "c1", ToolName: "bash", Args: json.RawMessage(`{}`), PartialResult: ToolResult{Content: Content{{Type: "text", Text: "a"}}, Details: json.RawMessage(`{"fullOutputPath":null}`)}}},
		{`{"type":"tool_execution_end","toolCallId":"c1","toolName":"bash","result":{"content":[]},"isError":true}`,
			&ToolExecutionEnd{ToolCallID: "c1", ToolName: "bash", Result: ToolResult{Content: Content{}}, IsError: true}},
		{`{"type":"queue_update","steering":["a"],"followUp":["b","c"]}`, &QueueUpdate{Steering: []string{"a"}, FollowUp: []string{"b", "c"}}},
		{`{"type":"compaction_start","reason":"overflow"}`, &CompactionStart{Reason: "overflow"}},
		{`{"type":"compaction_end","reason":"threshold","result":{"summary":"s","firstKeptEntryId":"e1","tokensBefore":100,"estimatedTokensAfter":20},"aborted":false,"willRetry":true}`,
			&CompactionEnd{Reason: "threshold", Result: &CompactionResult{Summary: "s", FirstKeptEntryID: "e1", TokensBefore: 100, EstimatedTokensAfter: 20}, WillRetry: true}},
		{`{"type":"compaction_end","reason":"manual","result":null,"aborted":false,"willRetry":false,"errorMessage":"quota"}`,
			&CompactionEnd{Reason: "manual", ErrorMessage: "quota"}},
		{`{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"529"}`,
			&AutoRetryStart{Attempt: 1, MaxAttempts: 3, DelayMs: 2000, ErrorMessage: "529"}},
		{`{"type":"auto_retry_end","success":false,"attempt":3,"finalError":"overloaded"}`, &AutoRetryEnd{Attempt: 3, FinalError: "overloaded"}},
		{`{"type":"summarization_retry_scheduled","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"terminated"}`,
			&SummarizationRetryScheduled{Attempt: 1, MaxAttempts: 3, DelayMs: 2000, ErrorMessage: "terminated"}},
		{`{"type":"summarization_retry_attempt_start","source":"compaction","reason":"threshold"}`,
			&SummarizationRetryAttemptStart{Source: "compaction", Reason: "threshold"}},
		{`{"type":"summarization_retry_finished"}`, &SummarizationRetryFinished{}},
		{`{"type":"extension_error","extensionPath":"/x.ts","event":"tool_call","error":"boom"}`,
			&ExtensionError{ExtensionPath: "/x.ts", Event: "tool_call", Error: "boom"}},
		{`{"type":"thinking_level_changed","level":"high"}`, &ThinkingLevelChanged{Level: "high"}},
		{`{"type":"session_info_changed","name":"work"}`, &SessionInfoChanged{Name: "work"}},
		{`{"type":"extension_ui_request","id":"u1","method":"select","title":"Allow?","options":["Allow","Block"],"timeout":10000}`,
			&ExtensionUIRequest{ID: "u1", Method: "select", Title: "Allow?", Options: []string{"Allow", "Block"}, TimeoutMs: 10000}},
		{`{"type":"extension_ui_request","id":"u6","method":"setStatus","statusKey":"k"}`,
			&ExtensionUIRequest{ID: "u6", Method: "setStatus", StatusKey: "k"}},
		{`{"type":"some_future_event","x":1}`, &UnknownEvent{Type: "some_future_event", Raw: json.RawMessage(`{"type":"some_future_event","x":1}`)}},
	}
	for _, c := range cases {
		got := decodeEvent(t, c.line)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.line, got, c.want)
		}
		if got.EventType() != c.want.EventType() {
			t.Errorf("%s: EventType %q", c.line, got.EventType())
		}
	}
}

func TestDecodeAllNineDeltaKinds(t *testing.T) {
	cases := map[string]AssistantDelta{
		`{"type":"text_start","contentIndex":0}`:                                {Type: DeltaTextStart},
		`{"type":"text_delta","contentIndex":0,"delta":"Hi \"x\"\n"}`:           {Type: DeltaTextDelta, Delta: "Hi \"x\"\n"},
		`{"type":"text_end","contentIndex":0,"content":"Hi"}`:                   {Type: DeltaTextEnd, Content: "Hi"},
		`{"type":"thinking_start","contentIndex":1}`:                            {Type: DeltaThinkingStart, ContentIndex: 1},
		`{"type":"thinking_delta","contentIndex":1,"delta":"hmm"}`:              {Type: DeltaThinkingDelta, ContentIndex: 1, Delta: "hmm"},
		`{"type":"thinking_end","contentIndex":1,"content":"hmm."}`:             {Type: DeltaThinkingEnd, ContentIndex: 1, Content: "hmm."},
		`{"type":"toolcall_start","contentIndex":2,"id":"c","toolName":"bash"}`: {Type: DeltaToolCallStart, ContentIndex: 2, ID: "c", ToolName: "bash"},
		`{"type":"toolcall_delta","contentIndex":2,"delta":"{\"com"}`:           {Type: DeltaToolCallDelta, ContentIndex: 2, Delta: `{"com`},
		`{"type":"toolcall_end","contentIndex":2,"toolCall":{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"ls"}}}`: {
			Type: DeltaToolCallEnd, ContentIndex: 2,
			ToolCall: &ContentBlock{Type: "toolCall", ID: "c", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}},
	}
	for inner, want := range cases {
		line := `{"type":"message_update","usage":{"input":3,"output":1,"totalTokens":4,"cost":{"total":0.5}},"assistantMessageEvent":` + inner + `}`
		ev := decodeEvent(t, line).(*MessageUpdate)
		if !reflect.DeepEqual(ev.Delta, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", inner, ev.Delta, want)
		}
		if ev.Usage == nil || ev.Usage.TotalTokens != 4 || ev.Usage.Cost.Total != 0.5 {
			t.Errorf("%s: usage %+v", inner, ev.Usage)
		}
	}
}

func TestDecodeSkipsCumulativeFields(t *testing.T) {
	// The older agent's shape: the whole message twice, deltas in between.
	partial := `{"role":"assistant","content":[{"type":"toolCall","id":"call_9","name":"bash","arguments":{}}],"x":"` + strings.Repeat(`\"}{[`, 1000) + `"}`
	line := `{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"partial":` + partial + `},"message":` + partial + `}`
	ev := decodeEvent(t, line).(*MessageUpdate)
	want := AssistantDelta{Type: DeltaToolCallStart, ID: "call_9", ToolName: "bash"}
	if !reflect.DeepEqual(ev.Delta, want) {
		t.Fatalf("got %#v, want %#v", ev.Delta, want)
	}
}

func TestDecodeResponses(t *testing.T) {
	resp, ev, err := DecodeRecord([]byte(`{"id":"kc-1","type":"response","command":"get_state","success":true,"data":{"thinkingLevel":"off"}}`))
	if err != nil || ev != nil {
		t.Fatal(err, ev)
	}
	if resp.ID != "kc-1" || resp.Command != "get_state" || !resp.Success || string(resp.Data) != `{"thinkingLevel":"off"}` {
		t.Fatalf("%+v", resp)
	}
	resp, _, err = DecodeRecord([]byte(`{"type":"response","command":"parse","success":false,"error":"Failed to parse command: Unexpected token"}`))
	if err != nil || resp.ID != "" || resp.Success || resp.Error == "" {
		t.Fatalf("%+v %v", resp, err)
	}
}

func TestDecodeRejectsMalformedRecords(t *testing.T) {
	for _, line := range []string{
		`not json`,
		`{"type":"agent_start"`,
		`{"type":"agent_start"} trailing`,
		`{"no_type":1}`,
		`[1,2]`,
		`{"type":5}`,
		`{"type":"message_update"}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":"x"}}`,
		`{"type":"tool_execution_end","isError":"yes"}`,
		`{"type":"a","b":[}`,
		`{"type":"a","b":"unterminated}`,
	} {
		if _, _, err := DecodeRecord([]byte(line)); err == nil {
			t.Errorf("%s: no error", line)
		}
	}
}

func TestObjectFieldsHandlesEscapedQuotes(t *testing.T) {
	var keys []string
	err := objectFields([]byte(`{"a":"x\\","b":"y\\\"z","c":{"d":["\\\\\"",{}]},"e":-1.5e3,"f":null}`), func(k, v []byte) {
		keys = append(keys, string(k)+"="+string(v))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`a="x\\"`, `b="y\\\"z"`, `c={"d":["\\\\\"",{}]}`, `e=-1.5e3`, `f=null`}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("got %q", keys)
	}
	if err := objectFields([]byte(`{"a":{"b":]}}`), func(k, v []byte) {}); !errors.Is(err, errBadJSON) {
		t.Fatalf("mismatched brackets: %v", err)
	}
}

func TestDecodeStringKeepsSeparators(t *testing.T) {
	s, err := decodeString([]byte("\"a\u2028b\u2029c\""))
	if err != nil || s != "a\u2028b\u2029c" {
		t.Fatalf("%q %v", s, err)
	}
	s, err = decodeString([]byte(`"a\u2028b\n\u00e9"`))
	if err != nil || s != "a\u2028b\né" {
		t.Fatalf("%q %v", s, err)
	}
}

func TestDecodeUsageFastAndFallback(t *testing.T) {
	var u Usage
	if err := decodeUsage([]byte(`{"input":100,"output":5,"cacheRead":1,"cacheWrite":2,"totalTokens":108,"cost":{"input":0.1,"output":2e-3,"cacheRead":0,"cacheWrite":0,"total":0.102}}`), &u); err != nil {
		t.Fatal(err)
	}
	want := Usage{Input: 100, Output: 5, CacheRead: 1, CacheWrite: 2, TotalTokens: 108, Cost: UsageCost{Input: 0.1, Output: 0.002, Total: 0.102}}
	if u != want {
		t.Fatalf("got %+v", u)
	}
	u = Usage{}
	if err := decodeUsage([]byte(`{"input":1.0,"output":2}`), &u); err == nil {
		t.Fatalf("float token count accepted silently: %+v", u)
	}
	if err := decodeUsage([]byte(`{"input":3,"extra":{"x":[1]},"cost":null}`), &u); err != nil || u.Input != 3 {
		t.Fatalf("%+v %v", u, err)
	}
}

// A system message's sections keep the agent's order.
func TestSystemMessageSections(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(`{"role":"system","content":"","sections":{"preamble":"You are pi.","tools":"<tools>\n- read\n</tools>","rules":"be kind","n":3}}`), &m); err != nil {
		t.Fatal(err)
	}
	want := Sections{{"preamble", "You are pi."}, {"tools", "<tools>\n- read\n</tools>"}, {"rules", "be kind"}, {"n", "3"}}
	if m.Role != RoleSystem || !reflect.DeepEqual(m.Sections, want) {
		t.Fatalf("got %+v", m)
	}
	out, _ := json.Marshal(m.Sections)
	if string(out) != `{"preamble":"You are pi.","tools":"\u003ctools\u003e\n- read\n\u003c/tools\u003e","rules":"be kind","n":"3"}` {
		t.Errorf("marshalled %s", out)
	}
}
