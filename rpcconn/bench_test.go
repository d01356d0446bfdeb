package rpcconn

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Recorded agent stdout: stream-cumulative is the older agent's format (the
// whole message repeated in every message_update), recorded from pi 0.73.1;
// stream-delta is the same stream in the 0.9.2 delta-only format.
func loadStream(b *testing.B, name string) []byte {
	b.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func benchmarkDecode(b *testing.B, name string) {
	data := loadStream(b, name)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	records := 0
	b.ResetTimer()
	for b.Loop() {
		lines := NewLineReader(bytes.NewReader(data))
		records = 0
		for {
			line, err := lines.Next()
			if err != nil {
				break
			}
			if _, _, err := DecodeRecord(line); err != nil {
				b.Fatalf("record %d: %v", records, err)
			}
			records++
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(records), "events/op")
	if allocs := testing.AllocsPerRun(1, func() {
		lines := NewLineReader(bytes.NewReader(data))
		for {
			line, err := lines.Next()
			if err != nil {
				return
			}
			DecodeRecord(line)
		}
	}); records > 0 {
		b.ReportMetric(allocs/float64(records), "allocs/event")
	}
}

func BenchmarkDecodeCumulative(b *testing.B) { benchmarkDecode(b, "stream-cumulative.jsonl.gz") }
func BenchmarkDecodeDelta(b *testing.B)      { benchmarkDecode(b, "stream-delta.jsonl.gz") }
