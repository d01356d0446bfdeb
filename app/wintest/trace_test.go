package wintest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// These need no display: the trace, fake-log and OCR parsing the window
// tests and benchmarks rely on.

func TestTraceTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tail := NewTraceTail(path)
	f.WriteString("1000000000 show \n2000000000 history 12000\n3000000000 dr")
	if got := tail.Poll(); len(got) != 2 || got[0].Event != "show" || got[1].N() != 12000 {
		t.Fatalf("first poll: %+v", got)
	}
	f.WriteString("aw \n4000000000 items 7\n")
	got := tail.Poll()
	if len(got) != 2 || got[0].Event != "draw" || got[1].N() != 7 {
		t.Fatalf("second poll: %+v", got)
	}
	if n := tail.Marks.Count("draw", time.Unix(3, 0), time.Unix(4, 0)); n != 1 {
		t.Errorf("Count draw = %d, want 1", n)
	}
	if m, ok := tail.Marks.First("items", time.Unix(2, 0), func(m Mark) bool { return m.N() > 5 }); !ok || !m.T.Equal(time.Unix(4, 0)) {
		t.Errorf("First items = %+v, %v", m, ok)
	}
	if len(ReadTrace(path)) != 4 {
		t.Errorf("ReadTrace: %d marks, want 4", len(ReadTrace(path)))
	}
}

func TestReadFakeLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	os.WriteFile(path, []byte(`{"id":"kc-1","type":"get_state"}`+"\n"+`{"id":"kc-2","type":"prompt","message":"hi \"there\""}`+"\nnot json\n"), 0o644)
	recs := ReadFakeLog(path)
	if len(recs) != 3 || recs[1].Type != "prompt" || recs[1].Message != `hi "there"` || recs[2].Raw != "not json" {
		t.Fatalf("ReadFakeLog: %+v", recs)
	}
}

func TestParseTSV(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"4\t1\t1\t1\t1\t0\t10\t20\t300\t30\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t1446\t122\t100\t20\t94.67\tRestart\n" +
		"5\t1\t1\t1\t1\t2\t10\t20\t40\t30\t90\t \n"
	words := parseTSV(tsv)
	if len(words) != 1 {
		t.Fatalf("parseTSV: %+v", words)
	}
	w, ok := FindWord(words, "restart")
	if !ok || w.X != 1446 || w.W != 100 {
		t.Fatalf("FindWord: %+v %v", w, ok)
	}
	if x, y := w.Center(); x != 1496 || y != 132 {
		t.Errorf("Center = %d,%d", x, y)
	}
	if _, ok := FindWord([]Word{{Text: "exited."}}, "Exited"); !ok {
		t.Error("FindWord should ignore case and punctuation")
	}
}

func TestDisplayNumber(t *testing.T) {
	for in, want := range map[string]string{":0": "0", ":99.0": "99", "unix:7": "7"} {
		if got, err := displayNumber(in); err != nil || got != want {
			t.Errorf("displayNumber(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := displayNumber("host:0"); err == nil {
		t.Error("a remote display should be refused")
	}
}
