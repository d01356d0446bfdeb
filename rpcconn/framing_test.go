package rpcconn

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t *testing.T, r io.Reader) []string {
	t.Helper()
	lr := NewLineReader(r)
	var out []string
	for {
		line, err := lr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("Next: %v", err)
			}
			return out
		}
		out = append(out, string(line))
	}
}

func TestLineReaderSplitsOnLFOnly(t *testing.T) {
	input := "{\"a\":\"x\u2028y\u2029z\"}\n{\"b\":\"\r\"}\r\n\n   \n\r\n{\"c\":1}"
	got := readAll(t, strings.NewReader(input))
	want := []string{"{\"a\":\"x\u2028y\u2029z\"}", "{\"b\":\"\r\"}", "{\"c\":1}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestLineReaderStripsOnlyOneCR(t *testing.T) {
	got := readAll(t, strings.NewReader("x\r\r\n"))
	if len(got) != 1 || got[0] != "x\r" {
		t.Fatalf("got %q, want [\"x\\r\"]", got)
	}
}

func TestLineReaderSplitsAnywhere(t *testing.T) {
	records := []string{
		`{"type":"message_update","delta":"héllo 世界 🎉"}`,
		"{\"t\":\"\u2028\"}",
		`{"n":1}`,
	}
	input := strings.Join(records, "\n") + "\n"
	// Every possible split point, including inside multi-byte characters.
	for cut := 0; cut <= len(input); cut++ {
		r := io.MultiReader(strings.NewReader(input[:cut]), strings.NewReader(input[cut:]))
		got := readAll(t, r)
		if strings.Join(got, "\n") != strings.Join(records, "\n") {
			t.Fatalf("cut at %d: got %q", cut, got)
		}
	}
	// One byte at a time.
	got := readAll(t, iotest.OneByteReader(strings.NewReader(input)))
	if strings.Join(got, "\n") != strings.Join(records, "\n") {
		t.Fatalf("one byte reads: got %q", got)
	}
}

func TestLineReaderHugeRecords(t *testing.T) {
	huge := `{"delta":"` + strings.Repeat("ab\u2028", 3<<20) + `"}` // ~15 MiB
	input := huge + "\n" + `{"after":true}` + "\n" + huge
	lr := NewLineReader(iotest.HalfReader(strings.NewReader(input)))
	for i, want := range []string{huge, `{"after":true}`, huge} {
		line, err := lr.Next()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if !bytes.Equal(line, []byte(want)) {
			t.Fatalf("record %d: got %d bytes, want %d", i, len(line), len(want))
		}
	}
	if _, err := lr.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after last record: %v, want EOF", err)
	}
}

func TestLineReaderGivesMemoryBack(t *testing.T) {
	huge := strings.Repeat("x", 8<<20)
	lr := NewLineReader(strings.NewReader(huge + "\nsmall\n"))
	if _, err := lr.Next(); err != nil {
		t.Fatal(err)
	}
	if line, err := lr.Next(); err != nil || string(line) != "small" {
		t.Fatalf("got %q, %v", line, err)
	}
	if len(lr.buf) > 4*initialLineBuffer {
		t.Fatalf("buffer still %d bytes after the huge record", len(lr.buf))
	}
}

func TestLineReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	lr := NewLineReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)))
	for _, want := range []string{"a", "b"} {
		line, err := lr.Next()
		if err != nil || string(line) != want {
			t.Fatalf("got %q, %v; want %q", line, err, want)
		}
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
}
