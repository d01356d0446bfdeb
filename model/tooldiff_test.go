package model

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

func TestPartialJSON(t *testing.T) {
	for _, c := range []struct {
		in   string
		want any
	}{
		{`{"path":"a.go","edits":[{"oldText":"x\ny","newText":"x\nz"}]}`,
			map[string]any{"path": "a.go", "edits": []any{map[string]any{"oldText": "x\ny", "newText": "x\nz"}}}},
		{`{"path":"a.g`, map[string]any{"path": "a.g"}},
		{`{"path":"a.go","ed`, map[string]any{"path": "a.go"}},
		{`{"path":"a.go","edits":[{"oldText":"one\ntw`,
			map[string]any{"path": "a.go", "edits": []any{map[string]any{"oldText": "one\ntw"}}}},
		{`{"path":"a.go","edits":[{"oldText":"a\`, map[string]any{"path": "a.go", "edits": []any{map[string]any{"oldText": "a"}}}},
		{`{"t":"\u00e9\u00`, map[string]any{"t": "é"}},
		{`{"t":"\ud83d`, map[string]any{"t": ""}},
		{`{"t":"\ud83d\ude00!`, map[string]any{"t": "😀!"}},
		{`{"t":"a\\`, map[string]any{"t": `a\`}},
		{`{"t":"a\\\`, map[string]any{"t": `a\`}},
		{`{"t":"a\\\\`, map[string]any{"t": `a\\`}},
		{`{"n":12`, map[string]any{}},
		{`{"n":12,"b":tru`, map[string]any{"n": 12.0}},
		{`{"n":12,"b":true}`, map[string]any{"n": 12.0, "b": true}},
		{`{"a":[1,2`, map[string]any{"a": []any{1.0}}},
		{` `, nil},
	} {
		got, _ := partialJSON(c.in)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("partialJSON(%s) = %#v, want %#v", c.in, got, c.want)
		}
	}
}

func TestEditPairsForms(t *testing.T) {
	for _, c := range []struct {
		name, args string
		want       []editPair
	}{
		{"edits", `{"path":"a","edits":[{"oldText":"1","newText":"2"},{"oldText":"3","newText":"4"}]}`, []editPair{{"1", "2"}, {"3", "4"}}},
		{"older form", `{"path":"a","oldText":"1","newText":"2"}`, []editPair{{"1", "2"}}},
		{"edits as a JSON string", `{"path":"a","edits":"[{\"oldText\":\"1\",\"newText\":\"2\"}]"}`, []editPair{{"1", "2"}}},
		{"both, older last", `{"path":"a","edits":[{"oldText":"1","newText":"2"}],"oldText":"3","newText":"4"}`, []editPair{{"1", "2"}, {"3", "4"}}},
		{"no edits", `{"path":"a"}`, nil},
	} {
		if got := editPairs(callArgs([]byte(c.args), false)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestEditsDiffSeveralEdits(t *testing.T) {
	got := editsDiff([]editPair{{"a\nb\n", "a\nB\n"}, {"same", "same"}, {"x", "y"}})
	want := " 1 a\n-2 b\n+2 B\n   ...\n-1 x\n+1 y"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCallCommand(t *testing.T) {
	for _, c := range []struct{ tool, args, want string }{
		{"bash", `{"command":"cat <<EOF\nline\nEOF","timeout":30}`, "cat <<EOF\nline\nEOF"},
		{"edit", `{"path":"src/main.go","edits":[{"oldText":"a","newText":"b"}]}`, "src/main.go"},
		{"write", `{"path":"notes.md","content":"hello"}`, "notes.md"},
		{"read", `{"path":"a.go"}`, "a.go"},
		{"read", `{"path": "a.go", "offset": 10, "limit": 20}`, `{"path":"a.go","offset":10,"limit":20}`},
		{"edit", `{"path":"a.go","edits":[],"extra":1}`, `{"extra":1,"path":"a.go"}`},
		{"mystery", `not json`, "not json"},
	} {
		if got := callCommand(c.tool, []byte(c.args), callArgs([]byte(c.args), false)); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.tool, c.args, got, c.want)
		}
	}
}

func TestCapDiff(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= cardDiffMaxRows+50; i++ {
		fmt.Fprintf(&b, "+%4d line\n", i)
	}
	kept, dropped := capDiff(strings.TrimSuffix(b.String(), "\n"))
	if n := strings.Count(kept, "\n") + 1; n != cardDiffMaxRows || dropped != 50 {
		t.Fatalf("kept %d rows, dropped %d", n, dropped)
	}
	huge := strings.Repeat("+1 "+strings.Repeat("x", 1000)+"\n", 300) + "+1 end"
	kept, dropped = capDiff(huge)
	if len(kept) > toolOutputCap || dropped == 0 || strings.Count(kept, "\n")+1+dropped != 301 {
		t.Fatalf("kept %d bytes, dropped %d rows", len(kept), dropped)
	}
	rows, more := contentRows(strings.Repeat("l\n", cardDiffMaxRows+7))
	if strings.Count(rows, "\n")+1 != cardDiffMaxRows || more != 7 || !strings.HasPrefix(rows, "    1 l\n") {
		t.Fatalf("content rows: %d, more %d, start %q", strings.Count(rows, "\n")+1, more, rows[:10])
	}
}

// editCall is an edit call's arguments as the model sends them.
const editCall = `{"path":"zebra.txt","edits":[{"oldText":"stripes\nblack\n","newText":"stripes\nwhite\n"}]}`

// TestEditCardDiffWhileStreamingThenAgents: an edit call's card shows a
// diff computed from its arguments while the model writes them and while
// the tool runs, and the agent's details.diff once the result has it.
func TestEditCardDiffWhileStreamingThenAgents(t *testing.T) {
	s := NewSession()
	apply(s, decode(t, runStart...))
	cut := strings.Index(editCall, `whi`) + 3 // inside newText
	apply(s, decode(t,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"id":"e1","toolName":"edit"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":`+jsonQuote(editCall[:cut])+`}}`,
	))
	v := s.View(nil)
	if len(v.Cards) != 1 {
		t.Fatalf("%d cards while the call streams", len(v.Cards))
	}
	c := v.Cards[0]
	if c.Status != ToolPending || c.Name != "edit" || c.ArgsSummary != "zebra.txt" || c.Command != "zebra.txt" {
		t.Fatalf("streaming card %+v", c)
	}
	if want := " 1 stripes\n-2 black\n+2 whi"; c.Diff != want || c.DiffNote != NoteComputedDiff {
		t.Fatalf("streaming diff %q (note %q), want %q", c.Diff, c.DiffNote, want)
	}

	apply(s, decode(t,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":`+jsonQuote(editCall[cut:])+`}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"e1","name":"edit","arguments":`+editCall+`}],"stopReason":"toolUse"}}`,
	))
	v = s.View(&v)
	if c = v.Cards[0]; c.Diff != " 1 stripes\n-2 black\n+2 white" || c.Status != ToolPending {
		t.Fatalf("after the reply: %+v", c)
	}
	apply(s, decode(t, `{"type":"tool_execution_start","toolCallId":"e1","toolName":"edit","args":`+editCall+`}`))
	v = s.View(&v)
	if c = v.Cards[0]; c.Status != ToolRunning || c.Diff != " 1 stripes\n-2 black\n+2 white" || c.DiffNote != NoteComputedDiff {
		t.Fatalf("running: %+v", c)
	}

	agents := "  ...\n 4 stripes\n-5 black\n+5 white\n 6 mane"
	apply(s, decode(t, `{"type":"tool_execution_end","toolCallId":"e1","toolName":"edit","result":{"content":[{"type":"text","text":"Successfully replaced 1 block(s) in zebra.txt."}],"details":{"diff":`+jsonQuote(agents)+`,"firstChangedLine":5}},"isError":false}`))
	v = s.View(&v)
	if c = v.Cards[0]; c.Status != ToolDone || c.Diff != agents || c.DiffNote != "" || c.DiffContent {
		t.Fatalf("done: %+v", c)
	}
	if len(v.Cards) != 1 {
		t.Fatalf("%d cards for one call", len(v.Cards))
	}
}

func TestFailedEditShowsItsError(t *testing.T) {
	s := NewSession()
	apply(s, decode(t,
		`{"type":"tool_execution_start","toolCallId":"e1","toolName":"edit","args":`+editCall+`}`,
		`{"type":"tool_execution_end","toolCallId":"e1","toolName":"edit","result":{"content":[{"type":"text","text":"Could not find the exact text in zebra.txt."}]},"isError":true}`,
	))
	if c := s.View(nil).Cards[0]; c.Diff != "" || c.Output != "Could not find the exact text in zebra.txt." {
		t.Fatalf("failed edit: %+v", c)
	}
}

func TestWriteCardShowsContent(t *testing.T) {
	s := NewSession()
	apply(s, decode(t,
		`{"type":"tool_execution_start","toolCallId":"w1","toolName":"write","args":{"path":"notes.md","content":"# Notes\r\n\r\nfirst\n"}}`,
		`{"type":"tool_execution_end","toolCallId":"w1","toolName":"write","result":{"content":[{"type":"text","text":"Successfully wrote 17 bytes to notes.md"}]},"isError":false}`,
	))
	c := s.View(nil).Cards[0]
	if c.Diff != " 1 # Notes\n 2 \n 3 first" || !c.DiffContent || c.DiffNote != noteWriteContent || c.Command != "notes.md" {
		t.Fatalf("write card %+v", c)
	}

	// An agent whose write says what it replaced.
	apply(s, decode(t,
		`{"type":"tool_execution_start","toolCallId":"w2","toolName":"write","args":{"path":"notes.md","content":"# Notes\n"}}`,
		`{"type":"tool_execution_end","toolCallId":"w2","toolName":"write","result":{"content":[{"type":"text","text":"ok"}],"details":{"diff":" 1 # Notes\n-2 \n-3 first"}},"isError":false}`,
	))
	c = s.View(nil).Cards[1]
	if c.Diff != " 1 # Notes\n-2 \n-3 first" || c.DiffContent || c.DiffNote != "" {
		t.Fatalf("write with a diff %+v", c)
	}
}

// TestStoppedReplyDropsItsCallCards: calls of a reply that was stopped
// never run; their cards, listed while they streamed, go.
func TestStoppedReplyDropsItsCallCards(t *testing.T) {
	s := NewSession()
	apply(s, decode(t, runStart...))
	apply(s, decode(t,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"id":"e1","toolName":"edit"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":"{\"path\":\"a"}}`,
	))
	if n := len(s.View(nil).Cards); n != 1 {
		t.Fatalf("%d cards while streaming", n)
	}
	apply(s, decode(t, `{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"e1","name":"edit","arguments":{"path":"a"}}],"stopReason":"aborted"}}`))
	if n := len(s.View(nil).Cards); n != 0 {
		t.Fatalf("%d cards after the reply was stopped", n)
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestStreamingSummary: a call being written is summed up by what is known
// of its command or path, never by its JSON cut short.
func TestStreamingSummary(t *testing.T) {
	for _, c := range []struct{ tool, raw, want string }{
		{"write", `{"content":"# Zebra notes\n\n- str`, ""},
		{"write", `{"content":"# Zebra notes\n","path":"notes/ze`, "notes/ze"},
		{"edit", `{"edits":[{"newText":"func`, ""},
		{"bash", `{"command":"go test ./... -run Te`, "go test ./... -run Te"},
		{"grep", `{"limit":20,"glob":"*.go"`, `{"glob":"*.go","limit":20}`},
		{"bash", `{"comm`, ""},
	} {
		raw := []byte(c.raw)
		if got := streamingSummary(c.tool, raw, callArgs(raw, true)); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.tool, c.raw, got, c.want)
		}
	}
}

// TestHistoryEditShowsAgentsDiff: a stored session's edit keeps the diff
// its stored result carries.
func TestHistoryEditShowsAgentsDiff(t *testing.T) {
	s := NewSession()
	s.LoadHistory([]rpcconn.Message{
		{Role: "user", Content: rpcconn.Content{{Type: "text", Text: "paint it"}}},
		{Role: "assistant", Content: rpcconn.Content{{Type: "toolCall", ID: "e1", Name: "edit", Arguments: []byte(editCall)}}, StopReason: "toolUse"},
		{Role: "toolResult", ToolCallID: "e1", ToolName: "edit", Content: rpcconn.Content{{Type: "text", Text: "Successfully replaced 1 block(s) in zebra.txt."}},
			Details: []byte(`{"diff":" 4 stripes\n-5 black\n+5 white","firstChangedLine":5}`)},
	})
	c := s.View(nil).Cards[0]
	if c.Diff != " 4 stripes\n-5 black\n+5 white" || c.DiffNote != "" || c.Command != "zebra.txt" {
		t.Fatalf("history edit card %+v", c)
	}
}
