package kit

import (
	"fmt"
	"strings"
	"testing"
)

func linesOf(b *MonoLines) []string {
	var out []string
	for n := b.First(); n < b.End(); n++ {
		out = append(out, b.Line(n))
	}
	return out
}

func TestMonoLinesAppendsCumulativeOutput(t *testing.T) {
	b := NewMonoLines()
	steps := []string{"hel", "hello\nwor", "hello\nworld\n", "hello\nworld\nbye"}
	for _, s := range steps {
		if !b.Set(s, 0) && s != steps[0] {
			t.Fatalf("set(%q) rebuilt; it continues what was there", s)
		}
	}
	if got, want := strings.Join(linesOf(b), "|"), "hello|world|bye"; got != want {
		t.Fatalf("lines = %q, want %q", got, want)
	}
	if b.Set("something else", 0) {
		t.Fatal("set of unrelated text reported an append")
	}
	if got := strings.Join(linesOf(b), "|"); got != "something else" {
		t.Fatalf("after replace lines = %q", got)
	}
}

func TestMonoLinesFollowsProducerCut(t *testing.T) {
	b := NewMonoLines()
	b.Set("aaaa\nbbbb\ncc", 0)
	// The producer dropped the first 5 bytes ("aaaa\n") and added more.
	if !b.Set("bbbb\ncccc\n", 5) {
		t.Fatal("a tail that continues the stream was rebuilt")
	}
	if got := strings.Join(linesOf(b), "|"); got != "aaaa|bbbb|cccc" {
		t.Fatalf("lines = %q", got)
	}
	// A cut that skipped past what was seen cannot be continued.
	if b.Set("zzzz\n", 100) {
		t.Fatal("a gap in the stream was treated as an append")
	}
}

func TestMonoLinesCleansTerminalOutput(t *testing.T) {
	b := NewMonoLines()
	b.Set("\x1b[32mok\x1b[0m\tdone\r\nprogress 10%\rprogress 90%\x07", 0)
	got := linesOf(b)
	want := []string{"ok  done", "progress 90%"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines = %q, want %q", got, want)
	}
	// A CR that ends a chunk may be half of a CRLF.
	b.Set("a\r", 0)
	b.Set("a\r\nb", 0)
	if got := strings.Join(linesOf(b), "|"); got != "a|b" {
		t.Fatalf("split CRLF gave %q", got)
	}
}

func TestMonoLinesCapsLines(t *testing.T) {
	b := NewMonoLines()
	b.max = 10
	var s strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&s, "line %d\n", i)
		b.Set(s.String(), 0)
	}
	if b.First() != 15 || b.Count() != 10 || b.Line(15) != "line 16" || b.Line(24) != "line 25" {
		t.Fatalf("first=%d count=%d lines=%q", b.First(), b.Count(), linesOf(b))
	}
	// One big update skips the lines it would cut without cleaning them.
	b.Reset()
	b.Set(strings.Repeat("x\n", 1000)+"last", 0)
	if b.First() != 990 || b.Count() != 11 || b.Line(b.End()-1) != "last" { // ten lines and the open one
		t.Fatalf("first=%d count=%d", b.First(), b.Count())
	}
}

func TestMonoLinesLongLinesEndInEllipsis(t *testing.T) {
	b := NewMonoLines()
	b.Set(strings.Repeat("é", 2*monoMaxLineRunes)+"\n", 0)
	l := b.Line(0)
	if !strings.HasSuffix(l, "…") || CellWidth(l) != monoMaxLineRunes+1 {
		t.Fatalf("long line kept %d runes", CellWidth(l))
	}
}

// BenchmarkMonoLinesAppend is BenchmarkToolOutputAppend without the widget:
// what recognising and splitting the new part of the output costs.
func BenchmarkMonoLinesAppend(b *testing.B) {
	const updates = 5000
	var lines []string
	for i := 0; i < updates; i++ {
		lines = append(lines, fmt.Sprintf("%5d compiling package knightcode.ai/desktop/widgets/file%d.go\n", i, i))
	}
	var outputs []string
	var out strings.Builder
	for i := 0; i < updates; i++ {
		out.WriteString(lines[i])
		if i%10 == 0 || i == updates-1 {
			outputs = append(outputs, strings.Clone(out.String()))
		}
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		m := NewMonoLines()
		for _, o := range outputs {
			m.Set(o, 0)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(outputs)), "ns/update")
}
