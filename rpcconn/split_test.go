package rpcconn

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func rawStrings(elems []json.RawMessage) []string {
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = string(e)
	}
	return out
}

func TestSplitArrayCutsAtTheArraysOwnCommas(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`[]`, []string{}},
		{" [ \n\t ] ", []string{}},
		{`[1]`, []string{`1`}},
		{`[1,"a",null,true,-2.5e3]`, []string{`1`, `"a"`, `null`, `true`, `-2.5e3`}},
		// Commas and brackets inside strings, escaped quotes, runs of
		// backslashes before a closing quote.
		{`["a,b","x\",]y","[{", "\\", "\\\"]\\"]`, []string{`"a,b"`, `"x\",]y"`, `"[{"`, `"\\"`, `"\\\"]\\"`}},
		// Nested arrays and objects: only top-level commas cut.
		{`[[1,[2,3]],{"a":[4,{"b":5}],"c":"]"},[]]`, []string{`[1,[2,3]]`, `{"a":[4,{"b":5}],"c":"]"}`, `[]`}},
		// Whitespace around elements is trimmed, inside them kept.
		{"[\n  {\"a\": 1 ,\n \"b\" : [ 2 ]} ,\r\n\t\"s p\"  \n]", []string{"{\"a\": 1 ,\n \"b\" : [ 2 ]}", `"s p"`}},
		// Malformed elements come out as they are; their neighbours are
		// still found.
		{`[tru,{"role":"user"}]`, []string{`tru`, `{"role":"user"}`}},
		{`[{"a" 1},{"b":2}]`, []string{`{"a" 1}`, `{"b":2}`}},
		{`[1,,2]`, []string{`1`, ``, `2`}},
		{`[1,]`, []string{`1`, ``}},
		{`[ , ]`, []string{``, ``}},
		{`[{"a":1} junk {"b":2},3]`, []string{`{"a":1} junk {"b":2}`, `3`}},
	} {
		data := []byte(c.in)
		start := skipSpace(data, 0)
		elems, end, err := splitArray(data, start, nil)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := rawStrings(elems); strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("%s: got %q, want %q", c.in, got, c.want)
		}
		if end != len(strings.TrimRight(c.in, " \n\t")) {
			t.Errorf("%s: end %d", c.in, end)
		}
	}
}

func TestSplitArrayStopsWhereBoundariesCannotBeTrusted(t *testing.T) {
	for _, c := range []struct {
		in     string
		before []string
	}{
		{`{"a":1}`, nil},
		{`[1,2`, []string{`1`}},
		{`[1,{"a":[2}],3]`, []string{`1`}},
		{`[1,"unterminated]`, []string{`1`}},
		{`[{"a":1},{"b":"x"]`, []string{`{"a":1}`}},
	} {
		data := []byte(c.in)
		elems, _, err := splitArray(data, 0, nil)
		if !errors.Is(err, errBadJSON) {
			t.Errorf("%s: err %v", c.in, err)
		}
		if got := rawStrings(elems); strings.Join(got, "|") != strings.Join(c.before, "|") {
			t.Errorf("%s: before the break %q, want %q", c.in, got, c.before)
		}
	}
}

// TestSplitArrayAgreesWithEncodingJSON checks the splitter against
// encoding/json on random valid arrays, huge elements among them.
func TestSplitArrayAgreesWithEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{`"`, `\`, `,`, `[`, `]`, `{`, `}`, ` `, "\n", "é", "\u2028", `:`, `x`}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := r.IntN(6); {
		case k == 0 || depth > 4:
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			return b.String()
		case k == 1:
			return r.Float64() * 1e6
		case k == 2:
			return nil
		case k == 3:
			a := make([]any, r.IntN(4))
			for i := range a {
				a[i] = value(depth + 1)
			}
			return a
		default:
			m := map[string]any{}
			for range r.IntN(4) {
				m[pieces[r.IntN(len(pieces))]+"k"] = value(depth + 1)
			}
			return m
		}
	}
	for n := range 200 {
		arr := make([]any, r.IntN(20))
		for i := range arr {
			arr[i] = value(0)
		}
		if n%50 == 0 {
			// A huge element: 8 MiB of text full of escapes.
			arr = append(arr, map[string]any{"content": strings.Repeat(`say "hi", [ok] \ `, 8<<20/18)})
		}
		data, err := json.MarshalIndent(arr, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		var want []json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		got, end, err := splitArray(data, 0, nil)
		if err != nil || end != len(data) || len(got) != len(want) {
			t.Fatalf("array %d: %d elements, end %d of %d, %v; want %d", n, len(got), end, len(data), err, len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("array %d element %d: %.80q, want %.80q", n, i, got[i], want[i])
			}
		}
	}
}

func TestSplitMessages(t *testing.T) {
	msgs, err := splitMessages([]byte(`{"other":[1,2],"messages":[{"role":"user"},{"role":"assistant"}],"more":{"a":"]"}}`))
	if err != nil || strings.Join(rawStrings(msgs), "|") != `{"role":"user"}|{"role":"assistant"}` {
		t.Fatalf("%q %v", rawStrings(msgs), err)
	}
	for _, data := range []string{``, `null`, `{}`, `{"messages":null}`, `{"messages":[]}`} {
		if msgs, err := splitMessages([]byte(data)); err != nil || len(msgs) != 0 {
			t.Errorf("%s: %q %v", data, rawStrings(msgs), err)
		}
	}
	for _, data := range []string{`{"messages":{}}`, `{"messages":"x"}`, `[1]`, `{"messages":nul}`} {
		if _, err := splitMessages([]byte(data)); !errors.Is(err, errBadJSON) {
			t.Errorf("%s: err %v", data, err)
		}
	}
	msgs, err = splitMessages([]byte(`{"messages":[{"role":"user"},{"role":"x"]`))
	if err == nil || len(msgs) != 1 {
		t.Fatalf("broken array: %q %v", rawStrings(msgs), err)
	}
}

func TestDecodeMessageKeepsWhatDecodes(t *testing.T) {
	m, err := DecodeMessage(json.RawMessage(`{"role":"user","timestamp":"yesterday","content":"hi"}`))
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) || m.Role != RoleUser || m.Content.Text() != "hi" {
		t.Fatalf("%+v %v", m, err)
	}
	m, err = DecodeMessage(json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":5},{"type":"text","text":"ok"}]}`))
	if err == nil || m.Role != RoleAssistant {
		t.Fatalf("bad block: %+v %v", m, err)
	}
	if _, err := DecodeMessage(json.RawMessage(`{"role":"user",}`)); err == nil || errors.As(err, &typeErr) {
		t.Fatalf("syntax error: %v", err)
	}
}

func TestLineReaderKeepHandsTheRecordOver(t *testing.T) {
	big := `{"a":"` + strings.Repeat("x", 300<<10) + `"}`
	lr := NewLineReader(strings.NewReader(big + "\n" + "next\n" + big + "\n"))
	line, err := lr.Next()
	if err != nil || string(line) != big {
		t.Fatalf("first: %d bytes, %v", len(line), err)
	}
	lr.Keep()
	kept := string(line)
	for _, want := range []string{"next", big} {
		got, err := lr.Next()
		if err != nil || string(got) != want {
			t.Fatalf("after Keep: %.20q, %v", got, err)
		}
	}
	if string(line) != kept {
		t.Fatal("the kept record was overwritten")
	}
}

// TestBigResponseDataIsTheReadersBuffer checks that the reader hands a big
// answer's data over without copying it, with the time its last byte came.
func TestBigResponseDataIsTheReadersBuffer(t *testing.T) {
	c := &Conn{pending: map[string]*call{}, abandoned: map[string]bool{}, events: newMailbox[Event](), preambleSeen: make(chan struct{})}
	big := &call{id: "kc-1", command: "get_messages", result: make(chan callResult, 1)}
	small := &call{id: "kc-2", command: "get_state", result: make(chan callResult, 1)}
	c.pending[big.id], c.pending[small.id] = big, small

	data := `{"messages":[{"role":"user","content":"` + strings.Repeat("y", 200<<10) + `"}]}`
	stream := `{"id":"kc-1","type":"response","command":"get_messages","success":true,"data":` + data + "}\n" +
		`{"id":"kc-2","type":"response","command":"get_state","success":true,"data":{"thinkingLevel":"off"}}` + "\n"
	lr := NewLineReader(strings.NewReader(stream))
	var lines [][]byte
	at := time.Now()
	for {
		line, err := lr.Next()
		if err != nil {
			break
		}
		lines = append(lines, line)
		if c.handleLine(line, at) {
			lr.Keep()
		}
	}
	r := (<-big.result).resp
	if string(r.Data) != data || !r.Received.Equal(at) {
		t.Fatalf("big response: %d bytes, received %v", len(r.Data), r.Received)
	}
	if !within(r.Data, lines[0]) {
		t.Fatal("a big response's data was copied")
	}
	if !r.messagesCut || len(r.messages) != 1 || !within(r.messages[0], r.Data) {
		t.Fatalf("messages not cut by the reader: %v, %d", r.messagesCut, len(r.messages))
	}
	s := (<-small.result).resp
	if string(s.Data) != `{"thinkingLevel":"off"}` || within(s.Data, lines[1]) {
		t.Fatalf("small response: %q, not copied out of the reader's buffer: %v", s.Data, !within(s.Data, lines[1]))
	}
}

func within(part, whole []byte) bool {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
	w := uintptr(unsafe.Pointer(unsafe.SliceData(whole)))
	return p >= w && p+uintptr(len(part)) <= w+uintptr(len(whole))
}

func TestDecodeResponseFieldsLikeEncodingJSON(t *testing.T) {
	for _, line := range []string{
		`{"type":"response","id":"a\"b","command":"get_state","success":true,"data":[1, 2]}`,
		`{"data":{"x":"}"},"success":false,"error":"no \u00e9","type":"response","command":"c"}`,
		`{"type":"response","id":null,"command":"parse","success":null,"error":null}`,
		`{"type":"response","command":"x","success":true,"data":null}`,
	} {
		got, _, err := DecodeRecord([]byte(line))
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		var want Response
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if got.ID != want.ID || got.Command != want.Command || got.Success != want.Success || got.Error != want.Error || string(got.Data) != string(want.Data) {
			t.Errorf("%s:\n got %+v\nwant %+v", line, got, want)
		}
	}
	for _, line := range []string{
		`{"type":"response","id":5}`,
		`{"type":"response","success":"yes"}`,
		`{"type":"response","error":{"message":"x"}}`,
	} {
		if _, _, err := DecodeRecord([]byte(line)); err == nil {
			t.Errorf("%s: no error", line)
		}
	}
}

// TestReaderCutsMessagesOnlyWhereItMay: the reader cuts a get_messages
// answer's messages when type and command come before data, and never
// hands out cut messages that alias a record it does not keep.
func TestReaderCutsMessagesOnlyWhereItMay(t *testing.T) {
	const msgs = `{"messages":[{"role":"user","content":"a,]"},{"role":"assistant"}]}`
	for _, c := range []struct {
		line string
		cut  bool
	}{
		{`{"id":"1","type":"response","command":"get_messages","success":true,"data":` + msgs + `}`, true},
		{`{"data":` + msgs + `,"id":"1","type":"response","command":"get_messages","success":true}`, false},
		{`{"id":"1","type":"response","command":"get_state","success":true,"data":` + msgs + `}`, false},
		// Not cuttable, still a response: GetMessagesRaw reports it.
		{`{"id":"1","type":"response","command":"get_messages","success":true,"data":{"messages":5}}`, false},
	} {
		resp, _, err := decodeRecord([]byte(c.line))
		if err != nil || resp.messagesCut != c.cut {
			t.Errorf("%s: cut %v, %v", c.line, resp != nil && resp.messagesCut, err)
			continue
		}
		if c.cut && strings.Join(rawStrings(resp.messages), "|") != `{"role":"user","content":"a,]"}|{"role":"assistant"}` {
			t.Errorf("%s: %q", c.line, rawStrings(resp.messages))
		}
		if copied, _, _ := DecodeRecord([]byte(c.line)); copied.messagesCut || copied.messages != nil {
			t.Errorf("%s: DecodeRecord kept messages that alias the line", c.line)
		}
	}
}

func TestContentTextSharesASingleBlock(t *testing.T) {
	long := strings.Repeat("output line\n", 1000)
	c := Content{{Type: ContentThinking, Thinking: "x"}, {Type: ContentText, Text: long}, {Type: ContentImage}}
	if got := c.Text(); got != long || unsafe.StringData(got) != unsafe.StringData(long) {
		t.Fatal("a single text block was copied")
	}
	two := Content{{Type: ContentText, Text: "a"}, {Type: ContentToolCall}, {Type: ContentText, Text: "b"}}
	if got := two.Text(); got != "a\nb" {
		t.Fatalf("%q", got)
	}
	if got := (Content{{Type: ContentImage}}).Text(); got != "" {
		t.Fatalf("%q", got)
	}
}
