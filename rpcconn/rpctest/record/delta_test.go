package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

func TestToDeltaFormat(t *testing.T) {
	in := [][]byte{
		[]byte(`{"type":"agent_start"}` + "\n"),
		[]byte(`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"a\u2028<b>","partial":{"role":"assistant","content":[{"type":"text","text":"a"}]}},"message":{"role":"assistant","content":[],"usage":{"input":1,"output":2}}}` + "\n"),
		[]byte(`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":1,"partial":{"content":[{"type":"text","text":"x"},{"type":"toolCall","id":"call_9","name":"bash","arguments":{}}]}},"message":{"usage":{"input":0}}}` + "\n"),
	}
	want := []string{
		`{"type":"agent_start"}` + "\n",
		`{"type":"message_update","usage":{"input":1,"output":2},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"a\u2028<b>"}}` + "\n",
		`{"type":"message_update","usage":{"input":0},"assistantMessageEvent":{"type":"toolcall_start","contentIndex":1,"id":"call_9","toolName":"bash"}}` + "\n",
	}
	out, err := toDeltaFormat(in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if string(out[i]) != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, out[i], want[i])
		}
	}
	if &out[0][0] != &in[0][0] {
		t.Error("a line that needs no change was copied")
	}
}

// The committed recordings must stay in step: the delta file is exactly
// the cumulative file run through toDeltaFormat.
func TestRecordingsAgree(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata")
	cumulative := readGzipLines(t, filepath.Join(dir, "stream-cumulative.jsonl.gz"))
	delta := readGzipLines(t, filepath.Join(dir, "stream-delta.jsonl.gz"))
	derived, err := toDeltaFormat(cumulative)
	if err != nil {
		t.Fatal(err)
	}
	if len(derived) != len(delta) {
		t.Fatalf("%d derived lines, %d recorded", len(derived), len(delta))
	}
	for i := range derived {
		if !bytes.Equal(derived[i], delta[i]) {
			t.Fatalf("line %d differs", i+1)
		}
	}
	if err := checkDeltasRebuildMessages(cumulative); err != nil {
		t.Error(err)
	}
	if err := checkDeltasRebuildMessages(delta); err != nil {
		t.Error(err)
	}
}

func readGzipLines(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (make it with: go run ./rpcconn/rpctest/record)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	r := bufio.NewReader(zr)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			lines = append(lines, line)
		}
		if err != nil {
			break
		}
	}
	return lines
}
