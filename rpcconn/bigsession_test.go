package rpcconn

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

// Sessions written by gensession (the UI bench's generator) for this test
// process, by entry count; TestMain removes them.
var generated struct {
	sync.Mutex
	dir   string
	files map[int]string
}

func generatedSession(tb testing.TB, entries int) string {
	tb.Helper()
	generated.Lock()
	defer generated.Unlock()
	if f, ok := generated.files[entries]; ok {
		return f
	}
	if generated.dir == "" {
		dir, err := os.MkdirTemp("", "rpcconn-sessions-")
		if err != nil {
			tb.Fatal(err)
		}
		generated.dir, generated.files = dir, map[int]string{}
	}
	f := filepath.Join(generated.dir, "session-"+strconv.Itoa(entries)+".jsonl")
	if err := rpctest.GenerateSession(f, entries); err != nil {
		tb.Skip("cannot generate a session: ", err)
	}
	generated.files[entries] = f
	return f
}

func removeGeneratedSessions() {
	if generated.dir != "" {
		os.RemoveAll(generated.dir)
	}
}

// TestGetMessagesRawMatchesGetMessages reads a generated session both ways
// from the fake agent.
func TestGetMessagesRawMatchesGetMessages(t *testing.T) {
	c := startFake(t, "--session", generatedSession(t, 600))
	ctx := testContext(t)
	before := time.Now()
	raw, err := c.GetMessagesRaw(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Received.Before(before) || raw.Received.After(time.Now()) || raw.Size < 600*3000 {
		t.Fatalf("received %v (asked at %v), %d bytes", raw.Received, before, raw.Size)
	}
	msgs, err := c.GetMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw.Messages) != 600 || len(msgs) != 600 {
		t.Fatalf("%d raw messages, %d decoded, want 600", len(raw.Messages), len(msgs))
	}
	for i, r := range raw.Messages {
		m, err := DecodeMessage(r)
		if err != nil || !reflect.DeepEqual(m, msgs[i]) {
			t.Fatalf("message %d: %v\n raw %+v\nwant %+v", i, err, m, msgs[i])
		}
	}
}

func bigAnswer(b *testing.B) []byte {
	line, err := rpctest.MessagesAnswer(generatedSession(b, 12000), "kc-5")
	if err != nil {
		b.Fatal(err)
	}
	return append(line, '\n')
}

// BenchmarkMessagesAnswerRead reads a 12,000-entry get_messages answer (the
// UI bench's session, 48 MB) off a reader into the line buffer, as the
// reader goroutine does while the agent writes it. B/answer-byte is that
// buffer's growth: doubling from 64 KiB to 64 MiB.
func BenchmarkMessagesAnswerRead(b *testing.B) {
	stream := bigAnswer(b)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	mem := memNow()
	for b.Loop() {
		lr := NewLineReader(bytes.NewReader(stream))
		if _, err := lr.Next(); err != nil {
			b.Fatal(err)
		}
		lr.Keep()
	}
	b.StopTimer()
	allocsPerAnswerByte(b, mem, len(stream))
}

// BenchmarkMessagesAnswer is what follows the answer's last byte before any
// message is decoded: the reader's walk over the record, which finds the
// response's fields and cuts the messages array.
func BenchmarkMessagesAnswer(b *testing.B) {
	stream := bigAnswer(b)
	line := stream[:len(stream)-1]
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	var n int
	mem := memNow()
	for b.Loop() {
		resp, _, err := decodeRecord(line)
		if err != nil || !resp.messagesCut {
			b.Fatal("not cut by the reader: ", err)
		}
		n = len(resp.messages)
	}
	b.StopTimer()
	if n != 12000 {
		b.Fatalf("%d messages", n)
	}
	allocsPerAnswerByte(b, mem, len(line))
}

// BenchmarkMessagesAnswerDecoded is reading, cutting and decoding every
// message one by one (the app's second step decodes most of them).
func BenchmarkMessagesAnswerDecoded(b *testing.B) {
	stream := bigAnswer(b)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	mem := memNow()
	for b.Loop() {
		lr := NewLineReader(bytes.NewReader(stream))
		rec, _ := lr.Next()
		resp, _, err := decodeRecord(rec)
		if err != nil {
			b.Fatal(err)
		}
		lr.Keep()
		raw := resp.messages
		msgs := make([]Message, len(raw))
		for i, r := range raw {
			if err := json.Unmarshal(r, &msgs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	allocsPerAnswerByte(b, mem, len(stream))
}

// BenchmarkMessagesAnswerBefore is the path this package had before the
// raw answer: the response decoded by encoding/json (its data copied) and
// then every message decoded by GetMessages.
func BenchmarkMessagesAnswerBefore(b *testing.B) {
	stream := bigAnswer(b)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	mem := memNow()
	for b.Loop() {
		lr := NewLineReader(bytes.NewReader(stream))
		rec, _ := lr.Next()
		var resp Response
		if err := json.Unmarshal(rec, &resp); err != nil {
			b.Fatal(err)
		}
		var r struct {
			Messages []Message `json:"messages"`
		}
		if err := json.Unmarshal(resp.Data, &r); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	allocsPerAnswerByte(b, mem, len(stream))
}

// allocsPerAnswerByte reports the bytes allocated per op (from start, a
// reading taken before the loop) per byte of answer, as "B/answer-byte".
func allocsPerAnswerByte(b *testing.B, start runtime.MemStats, size int) {
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	b.ReportMetric(float64(end.TotalAlloc-start.TotalAlloc)/float64(b.N)/float64(size), "B/answer-byte")
}

func memNow() (m runtime.MemStats) {
	runtime.ReadMemStats(&m)
	return m
}
