package rpcconn

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzDecodeStream feeds arbitrary bytes through framing and decoding, read
// in odd-sized pieces. Nothing may panic, every LF-separated non-blank
// record must come out exactly once, and what decodes must agree with
// encoding/json about being valid.
func FuzzDecodeStream(f *testing.F) {
	seeds := []string{
		`{"type":"agent_start"}` + "\n" + `{"type":"agent_settled"}`,
		`{"id":"kc-1","type":"response","command":"get_state","success":true,"data":{"model":null}}` + "\r\n",
		"{\"type\":\"message_update\",\"assistantMessageEvent\":{\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"a\u2028b\"}}\n",
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"partial":{"content":[{"id":"c","name":"bash"}]}},"message":{}}`,
		`{"type":"extension_ui_request","id":"u","method":"confirm","title":"t","timeout":5}`,
		`{"type":"tool_execution_update","toolCallId":"c","partialResult":{"content":[{"type":"text","text":"x\\\"y"}]}}`,
		"garbage\n\n{\"type\":\n",
		`{"type":"queue_update","steering":["\ud83d\ude00"],"followUp":[]}`,
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i+1))
	}
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		var r io.Reader = bytes.NewReader(stream)
		if chunk%3 == 0 {
			r = iotest.OneByteReader(r)
		} else if chunk%3 == 1 {
			r = iotest.HalfReader(r)
		}
		var want [][]byte
		for _, line := range bytes.Split(stream, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if !isBlank(line) {
				want = append(want, line)
			}
		}
		lr := NewLineReader(r)
		for i := 0; ; i++ {
			line, err := lr.Next()
			if err != nil {
				if i != len(want) {
					t.Fatalf("got %d records, want %d", i, len(want))
				}
				return
			}
			if i >= len(want) || !bytes.Equal(line, want[i]) {
				t.Fatalf("record %d = %q", i, line)
			}
			resp, ev, err := DecodeRecord(line)
			if err != nil {
				continue
			}
			if resp == nil && ev == nil {
				t.Fatalf("no result and no error for %q", line)
			}
			// Only message_update, agent_end and responses are decoded
			// without a full validation pass (skipped fields and a
			// response's data are checked for structure only; data is
			// validated when it is decoded).
			_, lazyUpdate := ev.(*MessageUpdate)
			_, lazyEnd := ev.(*AgentEnd)
			if !lazyUpdate && !lazyEnd && resp == nil && !json.Valid(line) {
				t.Fatalf("invalid JSON accepted as %T: %q", ev, line)
			}
		}
	})
}

// FuzzSplitArray checks the messages splitter against encoding/json: on a
// valid array it must find exactly encoding/json's elements; on anything
// else it must not panic, and what it cuts must lie inside the input.
func FuzzSplitArray(f *testing.F) {
	for _, s := range []string{`[]`, `[1,"a,]",{"b":[2,{"c":"\\\""}]}]`, `[tru, {"a" 1},,]`, `[{"a":"x]`, " [ \n{\"k\": [ ]} ] "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := skipSpace(data, 0)
		got, end, err := splitArray(data, start, nil)
		for _, e := range got {
			if len(e) > 0 && !within(e, data) {
				t.Fatalf("element %q outside the input", e)
			}
		}
		var want []json.RawMessage
		if start < len(data) && data[start] == '[' && json.Valid(data) && json.Unmarshal(data, &want) == nil {
			if err != nil || skipSpace(data, end) != len(data) || len(got) != len(want) {
				t.Fatalf("valid %q: %q, end %d, %v", data, got, end, err)
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("valid %q: element %d = %q, want %q", data, i, got[i], want[i])
				}
			}
		}
	})
}
