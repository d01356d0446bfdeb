package model

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// The app's part of opening the UI bench's 12,000-entry session (48 MB),
// from the messages GetMessagesRaw cut out of the answer (see rpcconn's
// BenchmarkMessagesAnswer* for reading and cutting). B/answer-byte is the
// memory allocated per byte of answer.

func benchHistory(b *testing.B) ([]json.RawMessage, int) {
	raw := generatedHistory(b, 12000)
	size := 0
	for _, r := range raw {
		size += len(r)
	}
	return raw, size
}

func reportAnswerBytes(b *testing.B, start runtime.MemStats, size int) {
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	b.ReportMetric(float64(end.TotalAlloc-start.TotalAlloc)/float64(b.N)/float64(size), "B/answer-byte")
}

func memStats() (m runtime.MemStats) {
	runtime.ReadMemStats(&m)
	return m
}

// BenchmarkHistoryFirstScreen is the first step, up to the View the first
// draw takes: what stands between the answer and the first paint.
func BenchmarkHistoryFirstScreen(b *testing.B) {
	raw, size := benchHistory(b)
	b.ReportAllocs()
	b.ResetTimer()
	mem := memStats()
	items := 0
	for i := 0; i < b.N; i++ {
		s := NewSession()
		s.BeginHistory(raw, nil)
		items = len(s.View(nil).Items)
	}
	b.StopTimer()
	reportAnswerBytes(b, mem, size)
	b.ReportMetric(float64(items), "items")
}

// BenchmarkHistoryRest is the second step, off the UI goroutine: decoding
// and converting the older messages and their cards, and prepending them.
func BenchmarkHistoryRest(b *testing.B) {
	raw, size := benchHistory(b)
	b.ReportAllocs()
	b.ResetTimer()
	var allocated uint64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := NewSession()
		h := s.BeginHistory(raw, nil)
		before := memStats()
		b.StartTimer()
		h.Finish(context.Background())
		b.StopTimer()
		after := memStats()
		allocated += after.TotalAlloc - before.TotalAlloc
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(allocated)/float64(b.N)/float64(size), "B/answer-byte")
}

// BenchmarkHistoryViewAfterRest is the UI goroutine's share of the second
// step: the View of the whole transcript the next draw takes.
func BenchmarkHistoryViewAfterRest(b *testing.B) {
	raw, _ := benchHistory(b)
	s := NewSession()
	h := s.BeginHistory(raw, nil)
	prev := s.View(nil)
	h.Finish(context.Background())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.chatRev++
		s.toolsRev++
		v := s.View(&prev)
		_ = v
	}
}

// BenchmarkHistoryOneStep is what opening cost before: every message
// decoded and converted, then the View of all of it.
func BenchmarkHistoryOneStep(b *testing.B) {
	raw, size := benchHistory(b)
	b.ReportAllocs()
	b.ResetTimer()
	mem := memStats()
	for i := 0; i < b.N; i++ {
		decoded := testsupport.DecodeMessages(b, raw)
		s := NewSession()
		s.LoadHistory(decoded)
		s.View(nil)
	}
	b.StopTimer()
	reportAnswerBytes(b, mem, size)
}
