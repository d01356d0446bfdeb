package model

import (
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// decode turns protocol lines into events, as the connection would.
func decode(t *testing.T, lines ...string) []rpcconn.Event {
	t.Helper()
	var out []rpcconn.Event
	for _, l := range lines {
		_, ev, err := rpcconn.DecodeRecord([]byte(l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, ev)
	}
	return out
}

func apply(s *Session, evs []rpcconn.Event) Effects {
	var all Effects
	for _, ev := range evs {
		fx := s.Apply(ev)
		all.Settled = all.Settled || fx.Settled
		all.Dialogs = append(all.Dialogs, fx.Dialogs...)
		if fx.EditorText != nil {
			all.EditorText = fx.EditorText
		}
	}
	return all
}

func delta(kind string, index int, text string) string {
	return `{"type":"message_update","assistantMessageEvent":{"type":"` + kind + `","contentIndex":` + string(rune('0'+index)) + `,"delta":` + quote(text) + `}}`
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"` }

var runStart = []string{
	`{"type":"agent_start"}`,
	`{"type":"turn_start"}`,
	`{"type":"message_start","message":{"role":"user","content":"Hello","timestamp":1}}`,
	`{"type":"message_end","message":{"role":"user","content":"Hello","timestamp":1}}`,
	`{"type":"message_start","message":{"role":"assistant","content":[],"model":"fake-thinker"}}`,
}

func TestStreamedReplyBecomesOneItem(t *testing.T) {
	s := NewSession()
	apply(s, decode(t, runStart...))
	apply(s, decode(t,
		`{"type":"message_update","assistantMessageEvent":{"type":"thinking_start","contentIndex":0}}`,
		delta("thinking_delta", 0, "Pondering"),
		`{"type":"message_update","assistantMessageEvent":{"type":"text_start","contentIndex":1}}`,
		delta("text_delta", 1, "# Title\n"),
	))
	v := s.View(nil)
	if len(v.Items) != 2 || v.Items[0].Kind != ChatUser || v.Items[0].Text != "Hello" {
		t.Fatalf("items %+v", v.Items)
	}
	live := v.Items[1]
	if !live.Streaming || len(live.Blocks) != 2 || live.Blocks[0].Kind != BlockThinking || live.Blocks[1].Text != "# Title\n" {
		t.Fatalf("live %+v", live)
	}
	apply(s, decode(t, delta("text_delta", 1, "body")))
	v2 := s.View(&v)
	if v2.Items[1].Revision == live.Revision || v2.Items[1].Blocks[1].Text != "# Title\nbody" {
		t.Fatalf("live item did not change: %+v", v2.Items[1])
	}
	if v2.Items[0].Revision != v.Items[0].Revision {
		t.Fatal("the user message changed revision")
	}
	fx := apply(s, decode(t,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Pondering"},{"type":"text","text":"# Title\nbody"}],"stopReason":"stop","model":"fake-thinker"}}`,
		`{"type":"turn_end","message":{"role":"assistant","content":[]},"toolResults":[]}`,
		`{"type":"agent_end","messages":[],"willRetry":false}`,
	))
	if !fx.Settled {
		t.Fatal("an agent without agent_settled was not settled at agent_end")
	}
	v3 := s.View(&v2)
	if v3.Running || v3.Items[1].Streaming || v3.Items[1].Blocks[1].Text != "# Title\nbody" {
		t.Fatalf("after end %+v", v3.Items[1])
	}
}

func TestNewerAgentSettlesAtAgentSettled(t *testing.T) {
	s := NewSession()
	s.SetAgentSendsSettled(true)
	apply(s, decode(t, runStart...))
	if fx := apply(s, decode(t, `{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"stop"}}`, `{"type":"agent_end","willRetry":false}`)); fx.Settled {
		t.Fatal("settled at agent_end although the agent sends agent_settled")
	}
	if !s.Running() {
		t.Fatal("not running between agent_end and agent_settled")
	}
	if fx := apply(s, decode(t, `{"type":"agent_settled"}`)); !fx.Settled || s.Running() {
		t.Fatal("agent_settled did not settle")
	}
}

func TestToolRunsFeedCardsAndChips(t *testing.T) {
	s := NewSession()
	clock := time.Unix(1000, 0)
	s.now = func() time.Time { return clock }
	apply(s, decode(t, runStart...))
	apply(s, decode(t,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"bash"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":"{\"command\":\"seq"}}`,
	))
	v := s.View(nil)
	chip := v.Items[1].Blocks[0]
	if chip.Kind != BlockToolCall || chip.ToolName != "bash" || chip.ToolStatus != ToolPending || chip.ArgsSummary != "seq" {
		t.Fatalf("chip while the call streams: %+v", chip)
	}
	apply(s, decode(t,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"seq 3"}}],"stopReason":"toolUse"}}`,
		`{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{"command":"seq 3"}}`,
		`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","partialResult":{"content":[]}}`,
		`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","partialResult":{"content":[{"type":"text","text":"1\n2\n"}]}}`,
	))
	v = s.View(&v)
	if len(v.Cards) != 1 || v.Cards[0].Status != ToolRunning || v.Cards[0].Output != "1\n2\n" || v.Cards[0].ArgsSummary != "seq 3" || !v.Cards[0].Ended.IsZero() {
		t.Fatalf("card %+v", v.Cards)
	}
	if v.Items[1].Blocks[0].ToolStatus != ToolRunning {
		t.Fatalf("chip %+v", v.Items[1].Blocks[0])
	}
	clock = clock.Add(3 * time.Second)
	apply(s, decode(t, `{"type":"tool_execution_end","toolCallId":"c1","toolName":"bash","result":{"content":[{"type":"text","text":"boom"}]},"isError":true}`))
	v = s.View(&v)
	card := v.Cards[0]
	if card.Status != ToolFailed || card.Output != "boom" || card.Ended.Sub(card.Started) != 3*time.Second {
		t.Fatalf("card %+v", card)
	}
	if v.Items[1].Blocks[0].ToolStatus != ToolFailed {
		t.Fatalf("chip %+v", v.Items[1].Blocks[0])
	}
}

func TestToolOutputIsCapped(t *testing.T) {
	s := NewSession()
	big := strings.Repeat("x", toolOutputCap+10)
	apply(s, decode(t,
		`{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{}}`,
		`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","partialResult":{"content":[{"type":"text","text":"`+big+`"}],"details":{"fullOutputPath":"/tmp/out.log"}}}`,
	))
	c := s.View(nil).Cards[0]
	if len(c.Output) != toolOutputCap || c.OutputDropped != 10 || c.FullOutputPath != "/tmp/out.log" {
		t.Fatalf("output %d bytes, dropped %d, path %q", len(c.Output), c.OutputDropped, c.FullOutputPath)
	}
}

func TestQueueAbortAndErrors(t *testing.T) {
	s := NewSession()
	apply(s, decode(t, runStart...))
	apply(s, decode(t, `{"type":"queue_update","steering":["go left"],"followUp":["then sum up"]}`))
	v := s.View(nil)
	if !v.Running || len(v.Steering) != 1 || len(v.FollowUp) != 1 {
		t.Fatalf("queue %+v %+v running=%v", v.Steering, v.FollowUp, v.Running)
	}
	fx := apply(s, decode(t,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"partial"}],"stopReason":"aborted"}}`,
		`{"type":"agent_end","willRetry":false}`,
	))
	// An agent without agent_settled keeps the queue for the next prompt
	// after an abort: the run is over all the same.
	if !fx.Settled {
		t.Fatal("an aborted run with messages still queued did not settle")
	}
	if v = s.View(&v); v.Running || v.QueueNote != noteQueueNext {
		t.Fatalf("after the abort: running %v, queue note %q", v.Running, v.QueueNote)
	}
	s.SetCapabilities(rpcconn.Capabilities{Probed: true})
	if v = s.View(&v); v.QueueNote != NoteQueueStays {
		t.Fatalf("on an older agent the queue note is %q", v.QueueNote)
	}
	apply(s, decode(t, `{"type":"queue_update","steering":[],"followUp":[]}`))
	v = s.View(&v)
	if v.QueueNote != "" {
		t.Fatalf("note %q without a queue", v.QueueNote)
	}
	if v.Items[1].StopReason != "aborted" {
		t.Fatalf("aborted reply %+v", v.Items[1])
	}
	apply(s, decode(t, `{"type":"message_start","message":{"role":"assistant","content":[]}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"error","errorMessage":"Connection error."}}`))
	v = s.View(&v)
	last := v.Items[len(v.Items)-1]
	if last.StopReason != "error" || last.ErrorMessage != "Connection error." {
		t.Fatalf("error reply %+v", last)
	}
}

func TestExitMidStreamKeepsTheTranscript(t *testing.T) {
	s := NewSession()
	apply(s, decode(t, runStart...))
	apply(s, decode(t, `{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{}}`, delta("text_delta", 0, "half a repl")))
	fx := s.Apply(&rpcconn.Exit{Code: 3, StderrTail: "boom"})
	if !fx.Settled {
		t.Fatal("exit did not end the run")
	}
	v := s.View(nil)
	reply := v.Items[1]
	if reply.Streaming || reply.StopReason != StopInterrupted || reply.Blocks[0].Text != "half a repl" {
		t.Fatalf("interrupted reply %+v", reply)
	}
	// The crash is reported once, by the banner, with its stderr; the
	// transcript and the status bar do not repeat it.
	for _, it := range v.Items {
		if it.Kind == ChatNotice {
			t.Fatalf("the exit is reported in the transcript too: %+v", it)
		}
	}
	if b := v.Banner; b == nil || b.Level != NoticeError || !strings.Contains(b.Title, "exit code 3") || b.Detail != "boom" {
		t.Fatalf("banner %+v", b)
	}
	if strings.Contains(v.Status.Connection, "3") {
		t.Fatalf("status bar %q repeats the exit code", v.Status.Connection)
	}
	if v.Cards[0].Status != ToolFailed || v.Exit == nil || v.Conn != ConnExited || v.Running {
		t.Fatalf("after exit: card %+v exit %+v conn %v", v.Cards[0], v.Exit, v.Conn)
	}
}

func TestCompactionRetryAndExtensionRequests(t *testing.T) {
	s := NewSession()
	apply(s, decode(t, `{"type":"compaction_start","reason":"threshold"}`))
	if a := s.View(nil).Status.Activity; !strings.Contains(a, "Compacting") {
		t.Fatalf("activity %q", a)
	}
	apply(s, decode(t,
		`{"type":"compaction_end","reason":"threshold","result":{"summary":"We did X","firstKeptEntryId":"e","tokensBefore":150000,"estimatedTokensAfter":32000},"aborted":false,"willRetry":false}`,
		`{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"overloaded"}`,
	))
	v := s.View(nil)
	if v.Items[0].Kind != ChatCompaction || v.Items[0].Text != "We did X" || !strings.Contains(v.Items[0].Meta, "150.0k") {
		t.Fatalf("compaction %+v", v.Items[0])
	}
	if !strings.Contains(v.Status.Activity, "Retrying 1/3") {
		t.Fatalf("activity %q", v.Status.Activity)
	}
	fx := apply(s, decode(t,
		`{"type":"auto_retry_end","success":false,"attempt":3,"finalError":"still overloaded"}`,
		`{"type":"extension_ui_request","id":"1","method":"notify","message":"<b>not markup</b>","notifyType":"warning"}`,
		`{"type":"extension_ui_request","id":"2","method":"setStatus","statusKey":"ext","statusText":"Turn 3"}`,
		`{"type":"extension_ui_request","id":"3","method":"setTitle","title":"my project"}`,
		`{"type":"extension_ui_request","id":"4","method":"confirm","title":"Allow?"}`,
		`{"type":"extension_ui_request","id":"5","method":"set_editor_text","text":"prefill"}`,
		`{"type":"extension_error","extensionPath":"/e.ts","event":"tool_call","error":"bad"}`,
	))
	v = s.View(nil)
	texts := []string{}
	for _, it := range v.Items {
		texts = append(texts, it.Text)
	}
	joined := strings.Join(texts, "|")
	for _, want := range []string{"still overloaded", "<b>not markup</b>", "Extension error in /e.ts (tool_call): bad"} {
		if !strings.Contains(joined, want) {
			t.Errorf("transcript lacks %q: %s", want, joined)
		}
	}
	if v.Status.Extension["ext"] != "Turn 3" || v.Title != "my project" || v.Status.Activity != "" {
		t.Fatalf("status %+v title %q", v.Status, v.Title)
	}
	if len(fx.Dialogs) != 1 || fx.Dialogs[0].ID != "4" || fx.EditorText == nil || *fx.EditorText != "prefill" {
		t.Fatalf("effects %+v", fx)
	}
	apply(s, decode(t, `{"type":"extension_ui_request","id":"6","method":"setStatus","statusKey":"ext"}`))
	if _, ok := s.View(nil).Status.Extension["ext"]; ok {
		t.Fatal("status not cleared")
	}
}

func TestUnknownCommandProtocolErrorsStayQuiet(t *testing.T) {
	s := NewSession()
	s.Apply(&rpcconn.ProtocolError{Response: &rpcconn.Response{Command: "get_tree", Error: "Unknown command: get_tree"}})
	if n := len(s.View(nil).Items); n != 0 {
		t.Fatalf("%d items for an expected unknown command", n)
	}
	s.Apply(&rpcconn.ProtocolError{Line: "garbage", Err: errString("bad")})
	if n := len(s.View(nil).Items); n != 1 {
		t.Fatalf("garbage not reported")
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestLoadHistory(t *testing.T) {
	s := NewSession()
	exit := 0
	msgs := []rpcconn.Message{
		{Role: "user", Content: rpcconn.Content{{Type: "text", Text: "list files"}, {Type: "image", Data: "aGk=", MimeType: "image/png"}}},
		{Role: "assistant", Content: rpcconn.Content{{Type: "text", Text: "Sure"}, {Type: "toolCall", ID: "c1", Name: "bash", Arguments: []byte(`{"command":"ls"}`)}}, StopReason: "toolUse", Timestamp: 1_000},
		{Role: "toolResult", ToolCallID: "c1", ToolName: "bash", Content: rpcconn.Content{{Type: "text", Text: "a.go"}}, Timestamp: 7_500},
		{Role: "assistant", Content: rpcconn.Content{{Type: "text", Text: "One file."}}, StopReason: "stop"},
		{Role: "bashExecution", Command: "echo hi", Output: "hi\n", ExitCode: &exit},
		{Role: "custom", CustomType: "ext", Content: rpcconn.Content{{Type: "text", Text: "hidden"}}, Display: false},
		{Role: "compactionSummary", Summary: "earlier work", TokensBefore: 5000},
	}
	s.LoadHistory(msgs)
	v := s.View(nil)
	kinds := []ChatKind{}
	for _, it := range v.Items {
		kinds = append(kinds, it.Kind)
	}
	want := []ChatKind{ChatUser, ChatAssistant, ChatAssistant, ChatBash, ChatCompaction}
	if len(kinds) != len(want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v", kinds, want)
		}
	}
	if len(v.Items[0].Images) != 1 || string(v.Items[0].Images[0].Data) != "hi" {
		t.Fatalf("thumbnail %+v", v.Items[0].Images)
	}
	if c := v.Cards[0]; c.Ended.Sub(c.Started) != 6500*time.Millisecond {
		t.Fatalf("history tool ran %v, want 6.5s from its call to its result", c.Ended.Sub(c.Started))
	}
	if v.Items[1].Blocks[1].ToolStatus != ToolDone || len(v.Cards) != 1 || v.Cards[0].Output != "a.go" {
		t.Fatalf("history tool: chip %+v cards %+v", v.Items[1].Blocks[1], v.Cards)
	}
}

func TestViewReusesUnchangedTranscript(t *testing.T) {
	s := NewSession()
	msgs := make([]rpcconn.Message, 0, 12000)
	for i := 0; i < 6000; i++ {
		msgs = append(msgs, rpcconn.Message{Role: "user", Content: rpcconn.Content{{Type: "text", Text: "q"}}},
			rpcconn.Message{Role: "assistant", Content: rpcconn.Content{{Type: "text", Text: "a"}}, StopReason: "stop"})
	}
	s.LoadHistory(msgs)
	v := s.View(nil)
	s.SetThinking("high")
	v2 := s.View(&v)
	if &v2.Items[0] != &v.Items[0] {
		t.Fatal("transcript copied although it did not change")
	}
	apply(s, decode(t, `{"type":"agent_start"}`, `{"type":"message_start","message":{"role":"assistant","content":[]}}`))
	v3 := s.View(&v2)
	if len(v3.Items) != 12001 || &v3.Items[0] == &v2.Items[0] {
		t.Fatal("a new item did not produce a new transcript")
	}
}

func TestBashTimesAndSurvivesExit(t *testing.T) {
	s := NewSession()
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	h := s.BashStart("sleep 5")
	i := s.bashIndex(h)
	v := s.View(nil)
	if !v.BashRunning || !v.Items[i].Started.Equal(now) || !v.Items[i].Ended.IsZero() {
		t.Fatalf("started %+v", v.Items[i])
	}
	rev := v.Items[i].Revision
	s.TickBash()
	if v = s.View(&v); v.Items[i].Revision == rev {
		t.Fatal("a tick did not move the running command's clock")
	}
	now = now.Add(1500 * time.Millisecond)
	code := 0
	s.BashEnd(h, rpcconn.BashResult{Output: "done\n", ExitCode: &code}, nil)
	v = s.View(&v)
	if it := v.Items[i]; v.BashRunning || it.Streaming || it.Ended.Sub(it.Started) != 1500*time.Millisecond {
		t.Fatalf("ended %+v", it)
	}
	rev = v.Items[i].Revision
	s.TickBash()
	if v = s.View(&v); v.Items[i].Revision != rev {
		t.Fatal("an idle tick changed a finished command")
	}

	// The agent dies under a running command: it ends there, marked, and
	// the late failure of its call changes nothing.
	hj := s.BashStart("sleep 60")
	j := s.bashIndex(hj)
	s.Apply(&rpcconn.Exit{Code: 1})
	v = s.View(&v)
	if it := v.Items[j]; v.BashRunning || it.Streaming || it.StopReason != StopInterrupted || it.Ended.IsZero() {
		t.Fatalf("after exit %+v", it)
	}
	s.BashEnd(hj, rpcconn.BashResult{}, &rpcconn.ExitError{Exit: &rpcconn.Exit{Code: 1}})
	s.BashOutput(hj, "late")
	if it := s.View(&v).Items[j]; it.Text != "" || it.Meta == "Failed" {
		t.Fatalf("late end applied: %+v", it)
	}
	// After a new session's history replaces the transcript, old handles
	// are dead too.
	k := s.BashStart("sleep 60")
	s.LoadHistory(nil)
	s.BashOutput(k, "stray")
	if v := s.View(nil); v.BashRunning || len(v.Items) != 0 {
		t.Fatalf("after LoadHistory: %+v", v.Items)
	}
}

// TestSessionSettleSaysStopped: a run that was stopped settles as stopped,
// from the agent's own word (pi 1.6's agent_settled.aborted) or, with an
// agent that has no settle (pi 0.73.1), from its aborted reply.
func TestSessionSettleSaysStopped(t *testing.T) {
	aborted := rpcconn.Message{Role: rpcconn.RoleAssistant, StopReason: rpcconn.StopReasonAborted}
	done := rpcconn.Message{Role: rpcconn.RoleAssistant, StopReason: rpcconn.StopReasonStop}
	for _, tc := range []struct {
		name    string
		settled bool // the agent sends agent_settled
		events  []rpcconn.Event
		stopped bool
	}{
		{"settle says aborted", true, []rpcconn.Event{&rpcconn.AgentStart{}, &rpcconn.MessageEnd{Message: done}, &rpcconn.AgentEnd{}, &rpcconn.AgentSettled{Aborted: true}}, true},
		{"settle says finished", true, []rpcconn.Event{&rpcconn.AgentStart{}, &rpcconn.MessageEnd{Message: done}, &rpcconn.AgentEnd{}, &rpcconn.AgentSettled{}}, false},
		{"no settle, aborted reply", false, []rpcconn.Event{&rpcconn.AgentStart{}, &rpcconn.MessageEnd{Message: aborted}, &rpcconn.AgentEnd{}}, true},
		{"no settle, finished reply", false, []rpcconn.Event{&rpcconn.AgentStart{}, &rpcconn.MessageEnd{Message: done}, &rpcconn.AgentEnd{}}, false},
	} {
		s := NewSession()
		s.SetAgentSendsSettled(tc.settled)
		var last Effects
		for _, ev := range tc.events {
			if fx := s.Apply(ev); fx.Settled {
				last = fx
			}
		}
		if !last.Settled || last.Stopped != tc.stopped {
			t.Errorf("%s: settled %v stopped %v, want stopped %v", tc.name, last.Settled, last.Stopped, tc.stopped)
		}
	}
}

// TestToolDurationIsTheAgents: with an agent that times its tool runs
// (pi 1.6's durationMs), a card shows that time, live and again after the
// session is loaded from history: the same figure both times.
func TestToolDurationIsTheAgents(t *testing.T) {
	call := rpcconn.ContentBlock{Type: rpcconn.ContentToolCall, ID: "call_1", Name: "bash", Arguments: []byte(`{"command":"sleep 1"}`)}
	live := NewSession()
	live.Apply(&rpcconn.ToolExecutionStart{ToolCallID: "call_1", ToolName: "bash", Args: call.Arguments})
	live.Apply(&rpcconn.ToolExecutionEnd{ToolCallID: "call_1", ToolName: "bash", DurationMs: 1391})
	cards := live.View(nil).Cards
	if len(cards) != 1 || cards[0].Ended.Sub(cards[0].Started) != 1391*time.Millisecond {
		t.Fatalf("live card %+v", cards)
	}
	reloaded := NewSession()
	reloaded.LoadHistory([]rpcconn.Message{
		{Role: rpcconn.RoleUser, Content: rpcconn.Content{{Type: rpcconn.ContentText, Text: "go"}}, Timestamp: 1000},
		{Role: rpcconn.RoleAssistant, Content: rpcconn.Content{call}, Timestamp: 2000, StopReason: rpcconn.StopReasonToolUse},
		{Role: rpcconn.RoleToolResult, ToolCallID: "call_1", ToolName: "bash", Timestamp: 4100, DurationMs: 1391},
	})
	cards = reloaded.View(nil).Cards
	if len(cards) != 1 || cards[0].Ended.Sub(cards[0].Started) != 1391*time.Millisecond {
		t.Fatalf("reloaded card %+v: %v, want the agent's 1.391s", cards, cards[0].Ended.Sub(cards[0].Started))
	}
}
