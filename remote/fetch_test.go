package remote

import (
	"bufio"
	"errors"
	"runtime"
	"strings"
	"testing"
)

type fetched struct {
	i    int
	data string
	nil  bool
}

func parse(stream string, n int) ([]fetched, error) {
	var got []fetched
	err := parseFetched(bufio.NewReader(strings.NewReader(stream)), n, func(i int, data []byte) error {
		got = append(got, fetched{i, string(data), data == nil})
		return nil
	})
	return got, err
}

func TestParseFetchedReadsFilesAsAnnounced(t *testing.T) {
	got, err := parse("F 3\nabcE\nF 0\nF 04\n\n\x00\nF", 4)
	want := []fetched{{0, "abc", false}, {1, "", true}, {2, "", false}, {3, "\n\x00\nF", false}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("got %+v, %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("file %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseFetchedRefusesWhatBreaksTheFormat(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		n            int
		says         string
		handedOn     int
		cut          bool // ended early: ssh's own error may say more
	}{
		{"long header", "F " + strings.Repeat("1", 40) + "\nx", 1, "where the header of file 1 of 1 belongs", 0, false},
		{"endless header", strings.Repeat("F", 1<<20), 1, "where the header of file 1 of 1 belongs", 0, false},
		{"garbage", "hello\n", 1, `"hello"`, 0, false},
		{"negative", "F -1\n", 1, `"F -1"`, 0, false},
		{"not a number", "F 12a\n", 1, `"F 12a"`, 0, false},
		{"no number", "F \n", 1, `"F "`, 0, false},
		{"space before the number", "F  1\nx", 1, `"F  1"`, 0, false},
		{"over 1 GB", "F 1073741825\n", 1, "1073741825 bytes, over the limit of 1 GB", 0, false},
		{"past int64", "F 99999999999999999999\n", 1, "over the limit of 1 GB", 0, false},
		{"less than announced", "F 10\nabcde", 1, "file 1 of 1 ended after 5 of the 10 bytes", 0, true},
		{"more than announced, last file", "F 3\nabcd", 1, "more than the 3 bytes it announced for the last file", 0, false},
		{"more than announced, then another", "F 3\nabcdF 1\nx", 2, `"dF 1"`, 0, false},
		{"more than announced, a valid-looking rest", "F 1\nxE\nE\n", 2, "more after saying the last file cannot be read", 1, false},
		{"fewer files", "F 1\nx", 2, "ended after 1 of 2 files", 0, true},
		{"nothing", "", 1, "ended after 0 of 1 files", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse(tc.stream, tc.n)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %v; want one saying %q", err, tc.says)
			}
			if errors.Is(err, errFetchCut) != tc.cut {
				t.Errorf("cut short: %v, want %v", errors.Is(err, errFetchCut), tc.cut)
			}
			if len(got) != tc.handedOn {
				t.Errorf("handed on %+v before the error; want %d files", got, tc.handedOn)
			}
		})
	}
}

// An announced size is not allocated up front: memory follows the bytes.
func TestParseFetchedGrowsWithTheBytes(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := parse("F 1073741824\n"+strings.Repeat("x", 1000), 1)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "ended after 1000 of the 1073741824 bytes") {
		t.Fatalf("error %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes for 1000 sent", grew)
	}
}

func TestCappedWriterStopsAtTheLimit(t *testing.T) {
	var sb strings.Builder
	stopped := false
	c := &cappedWriter{w: &sb, left: 5, stop: func() { stopped = true }}
	if n, err := c.Write([]byte("abc")); n != 3 || err != nil {
		t.Fatalf("under the limit: %d, %v", n, err)
	}
	n, err := c.Write([]byte("defg"))
	if n != 2 || !errors.Is(err, errTooLarge) || !c.over || !stopped || sb.String() != "abcde" {
		t.Fatalf("over the limit: %d, %v, over %v, stopped %v, wrote %q", n, err, c.over, stopped, sb.String())
	}
}
