package sessionfiles

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSessionLines(t *testing.T) {
	long := strings.Repeat("a", lineHead*3+5)
	in := "one\r\n\n  \ntwo\n" + long + "\n" + long + "}\nlast"
	l := newSessionLines(strings.NewReader(in))
	expect := func(want string, wantWhole, terminated bool, number int) {
		t.Helper()
		head, whole, err := l.next()
		if err != nil || string(head) != want || whole != wantWhole || (whole && l.terminated != terminated) || l.number != number {
			t.Fatalf("next = %.20q (%d bytes), whole %v, terminated %v, line %d, %v; want %.20q", head, len(head), whole, l.terminated, l.number, err, want)
		}
	}
	expect("one", true, true, 1)
	expect("two", true, true, 4)
	expect(long[:lineHead], false, false, 5)
	if rest, err := l.rest(); err != nil || string(rest) != long || !l.terminated || l.last != 'a' {
		t.Fatalf("rest = %d bytes, terminated %v, %v", len(rest), l.terminated, err)
	}
	expect(long[:lineHead], false, false, 6)
	if n, err := l.skip(); err != nil || n != int64(len(long)+2-lineHead) || !l.terminated || l.last != '}' {
		t.Fatalf("skip = %d, terminated %v, last %q, %v", n, l.terminated, l.last, err)
	}
	expect("last", true, false, 7)
	if _, _, err := l.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v", err)
	}

	// A long line left unread is skipped by the next call.
	l = newSessionLines(strings.NewReader(long + "\nafter\n"))
	expect(long[:lineHead], false, false, 1)
	expect("after", true, true, 2)
}
