package rpcconn

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func events(t *testing.T, lines ...string) []Event {
	t.Helper()
	var out []Event
	for _, l := range lines {
		out = append(out, decodeEvent(t, l))
	}
	return out
}

func update(delta string) string {
	return `{"type":"message_update","assistantMessageEvent":` + delta + `}`
}

func TestMessageBuilderAssemblesByContentIndex(t *testing.T) {
	evs := events(t,
		`{"type":"message_start","message":{"role":"assistant","content":[],"provider":"p","model":"m"}}`,
		update(`{"type":"thinking_start","contentIndex":0}`),
		update(`{"type":"thinking_delta","contentIndex":0,"delta":"Let me "}`),
		update(`{"type":"text_start","contentIndex":1}`),
		update(`{"type":"thinking_delta","contentIndex":0,"delta":"think."}`),
		update(`{"type":"text_delta","contentIndex":1,"delta":"# Title\n"}`),
		update(`{"type":"toolcall_start","contentIndex":2,"id":"c1","toolName":"bash"}`),
		update(`{"type":"toolcall_delta","contentIndex":2,"delta":"{\"command\":"}`),
		update(`{"type":"text_delta","contentIndex":1,"delta":"body"}`),
	)
	var b MessageBuilder
	for _, ev := range evs {
		if !b.Apply(ev) {
			t.Fatalf("%T did not change the message", ev)
		}
	}
	m := b.Message()
	if !b.Streaming() || m.Provider != "p" || len(m.Content) != 3 {
		t.Fatalf("%+v", m)
	}
	if m.Content[0].Thinking != "Let me think." || m.Content[1].Text != "# Title\nbody" {
		t.Fatalf("%+v", m.Content)
	}
	if m.Content[2].Name != "bash" || m.Content[2].Arguments != nil || b.PartialArguments(2) != `{"command":` {
		t.Fatalf("tool call %+v %q", m.Content[2], b.PartialArguments(2))
	}
	for _, ev := range events(t,
		update(`{"type":"toolcall_delta","contentIndex":2,"delta":"\"ls\"}"}`),
		update(`{"type":"toolcall_end","contentIndex":2,"toolCall":{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}}`),
		update(`{"type":"text_end","contentIndex":1,"content":"# Title\nbody"}`),
	) {
		b.Apply(ev)
	}
	if got := string(b.Message().Content[2].Arguments); got != `{"command":"ls"}` {
		t.Fatalf("arguments %s", got)
	}
	final := `{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"authoritative"}],"stopReason":"stop"}}`
	b.Apply(decodeEvent(t, final))
	if b.Streaming() || b.Message().Content.Text() != "authoritative" {
		t.Fatalf("after end: %+v", b.Message())
	}
}

func TestMessageBuilderIgnoresUserMessages(t *testing.T) {
	var b MessageBuilder
	if b.Apply(decodeEvent(t, `{"type":"message_start","message":{"role":"user","content":"hi"}}`)) {
		t.Fatal("user message_start changed the assistant builder")
	}
	if b.Apply(decodeEvent(t, update(`{"type":"text_delta","contentIndex":0,"delta":"x"}`))) {
		t.Fatal("delta without message_start applied")
	}
}

func TestMessageBuilderIsLinear(t *testing.T) {
	var b MessageBuilder
	b.Apply(decodeEvent(t, `{"type":"message_start","message":{"role":"assistant","content":[]}}`))
	delta := &MessageUpdate{Delta: AssistantDelta{Type: DeltaTextDelta, Delta: strings.Repeat("w", 10)}}
	for i := 0; i < 50000; i++ {
		b.Apply(delta)
	}
	if got := len(b.Message().Content.Text()); got != 500000 {
		t.Fatalf("text length %d", got)
	}
}

func TestToolTrackerReplacesPartialResults(t *testing.T) {
	var tr ToolTracker
	for _, ev := range events(t,
		`{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{"command":"seq 3"}}`,
		`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","partialResult":{"content":[]}}`,
		`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","partialResult":{"content":[{"type":"text","text":"1\n"}]}}`,
		`{"type":"tool_execution_start","toolCallId":"c2","toolName":"read","args":{"path":"x"}}`,
		`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","partialResult":{"content":[{"type":"text","text":"1\n2\n"}],"details":{"fullOutputPath":"/tmp/full.log"}}}`,
	) {
		if tr.Apply(ev) == nil {
			t.Fatalf("%T ignored", ev)
		}
	}
	r := tr.Get("c1")
	if r.Done || r.Updates != 3 || r.Output.Content.Text() != "1\n2\n" || r.Output.FullOutputPath() != "/tmp/full.log" {
		t.Fatalf("%+v", r)
	}
	tr.Apply(decodeEvent(t, `{"type":"tool_execution_end","toolCallId":"c1","toolName":"bash","result":{"content":[{"type":"text","text":"boom"}]},"isError":true}`))
	if !r.Done || !r.IsError || r.Output.Content.Text() != "boom" {
		t.Fatalf("%+v", r)
	}
	var ids []string
	for _, run := range tr.Runs() {
		ids = append(ids, run.ToolCallID)
	}
	if !reflect.DeepEqual(ids, []string{"c1", "c2"}) || string(tr.Get("c2").Args) != `{"path":"x"}` {
		t.Fatalf("runs %v", ids)
	}
}

func TestToolTrackerPrependIsOneTracker(t *testing.T) {
	start := func(id string) Event { return &ToolExecutionStart{ToolCallID: id, ToolName: "bash"} }
	end := func(id string) Event { return &ToolExecutionEnd{ToolCallID: id, ToolName: "bash"} }
	var whole, older, newer ToolTracker
	for _, ev := range []Event{start("a"), end("a"), start("b"), start("c"), end("c"), start("b"), end("b")} {
		whole.Apply(ev)
	}
	for _, ev := range []Event{start("a"), end("a"), start("b")} {
		older.Apply(ev)
	}
	for _, ev := range []Event{start("c"), end("c"), start("b"), end("b")} {
		newer.Apply(ev)
	}
	newer.Prepend(&older)
	var got, want []string
	for _, r := range newer.Runs() {
		got = append(got, fmt.Sprint(r.ToolCallID, r.Done))
	}
	for _, r := range whole.Runs() {
		want = append(want, fmt.Sprint(r.ToolCallID, r.Done))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("prepended %v, one tracker %v", got, want)
	}
	var empty ToolTracker
	empty.Prepend(&older)
	if len(empty.Runs()) != 2 || empty.Get("a") == nil {
		t.Fatalf("prepended into an empty tracker: %v", empty.Runs())
	}
}

func TestRunTrackerSettles(t *testing.T) {
	start, end := &AgentStart{}, &AgentEnd{}
	retry := &AgentEnd{WillRetry: true}
	queued := &QueueUpdate{FollowUp: []string{"next"}}
	empty := &QueueUpdate{}
	steps := []struct {
		name    string
		sends   bool
		evs     []Event
		settles []int // the events that settle a run
	}{
		{"new agent waits for agent_settled", true, []Event{start, end, &AgentSettled{}}, []int{2}},
		{"older agent settles at agent_end", false, []Event{start, end, &AgentSettled{}}, []int{1}},
		{"older agent keeps running when a retry follows", false, []Event{start, retry, start, end}, []int{3}},
		// After an abort the queue stays with an older agent, for the next
		// prompt: it must not keep the run open (pi 0.73.1 without clear_queue).
		{"older agent settles at agent_end with messages still queued", false, []Event{start, queued, end}, []int{2}},
		{"older agent going on by itself runs again", false, []Event{start, queued, end, start, empty, end}, []int{2, 5}},
		{"new agent keeps running while it delivers the queue", true, []Event{start, queued, end, start, empty, end, &AgentSettled{}}, []int{6}},
		{"exit settles a running agent", true, []Event{start, &Exit{Code: 1}}, []int{1}},
		{"nothing settles when idle", true, []Event{&AgentSettled{}, &Exit{}}, nil},
	}
	for _, s := range steps {
		var r RunTracker
		var at []int
		for i, ev := range s.evs {
			if r.Apply(ev, s.sends) {
				at = append(at, i)
			}
		}
		if !reflect.DeepEqual(at, s.settles) {
			t.Errorf("%s: settled at %v, want %v", s.name, at, s.settles)
		}
		if r.Running() {
			t.Errorf("%s: still running at the end", s.name)
		}
	}
}

func TestEncodeCommand(t *testing.T) {
	rec, err := encodeCommand("kc-7", "prompt", Prompt{Message: "hi\u2028", Images: []Image{{Data: "AAAA", MimeType: "image/png"}}, StreamingBehavior: StreamSteer})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(rec, &got); err != nil || rec[len(rec)-1] != '\n' {
		t.Fatalf("%s: %v", rec, err)
	}
	want := map[string]any{"id": "kc-7", "type": "prompt", "message": "hi\u2028", "streamingBehavior": "steer",
		"images": []any{map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v", got)
	}
	rec, _ = encodeCommand("kc-8", "get_state", nil)
	if string(rec) != `{"id":"kc-8","type":"get_state"}`+"\n" {
		t.Fatalf("%s", rec)
	}
	rec, _ = encodeCommand("kc-9", "get_entries", struct {
		Since string `json:"since,omitempty"`
	}{})
	if string(rec) != `{"id":"kc-9","type":"get_entries"}`+"\n" {
		t.Fatalf("%s", rec)
	}
	// Names and ids are JSON strings, not Go-quoted ones (\x01, \a).
	for _, name := range []string{"we\x01ird\a\"quoted\\", "line\u2028sep é\tx", "bad\xffutf8"} {
		rec, err := encodeCommand(name+"-id", name, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ ID, Type string }
		if err := json.Unmarshal(rec, &got); err != nil {
			t.Fatalf("%q encodes as invalid JSON %s: %v", name, rec, err)
		}
		want := strings.ToValidUTF8(name, "\uFFFD")
		if got.Type != want || got.ID != want+"-id" {
			t.Fatalf("%q came back as %q / %q", name, got.Type, got.ID)
		}
	}
}
