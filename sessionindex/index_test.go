package sessionindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBuildAndSearch(t *testing.T) {
	root := t.TempDir()
	a := writeSession(t, root, "a.jsonl",
		headerLine("sess-a", "/home/ada/proj"),
		msgLine(1, "user", "why does the goroutine leak in the handler"),
		thinkingLine(2, "the channel is never closed", "The worker waits on a channel nobody closes."),
		msgLine(3, "toolResult", "panic: send on closed channel"),
		"",
		msgLine(4, "user", "fix the deadlock in rpcconn/conn.go please"),
	)
	writeSession(t, root, "b.jsonl",
		headerLine("sess-b", "/home/ada/other"),
		msgLine(1, "user", "write a README for the parser"),
	)
	x := openTest(t)
	st := update(t, x, root)
	if st.Files != 2 || st.Indexed != 2 || st.Rows != 5 {
		t.Fatalf("stats %+v", st)
	}

	hits := search(t, x, "deadlock")
	if len(hits) != 1 {
		t.Fatalf("deadlock: %d hits", len(hits))
	}
	h := hits[0]
	if h.Path != a || h.SessionID != "sess-a" || h.Cwd != "/home/ada/proj" || h.FirstPrompt != "why does the goroutine leak in the handler" {
		t.Fatalf("session fields %+v", h)
	}
	// The blank line before it counts: the entry is on line 6.
	if h.EntryID != "e4" || h.Kind != KindUser || h.Line != 6 || h.Ordinal != 3 || h.Field != "text" || h.Count != 1 {
		t.Fatalf("entry fields %+v", h)
	}
	if !h.Time.Equal(testTime.Add(4 * time.Minute)) {
		t.Fatalf("Time = %v", h.Time)
	}
	if h.Snippet != "fix the deadlock in rpcconn/conn.go please" || !slices.Equal(matched(h), []string{"deadlock"}) {
		t.Fatalf("snippet %q %v", h.Snippet, matched(h))
	}

	// Thinking and tool results are found, and say where the match is.
	if hits := search(t, x, "nobody"); len(hits) != 1 || hits[0].EntryID != "e2" || hits[0].Field != "text" {
		t.Fatalf("nobody: %+v", hits)
	}
	if hits := search(t, x, "never closed"); len(hits) != 1 || hits[0].Field != "thinking" || !slices.Equal(matched(hits[0]), []string{"never", "closed"}) {
		t.Fatalf("never closed: %+v", hits)
	}
	if hits := search(t, x, "panic send"); len(hits) != 1 || hits[0].Kind != KindToolResult || hits[0].Field != "tool" {
		t.Fatalf("panic send: %+v", hits)
	}
	// A path is a phrase, matched as a whole.
	if hits := search(t, x, "rpcconn/conn.go"); len(hits) != 1 || !slices.Equal(matched(hits[0]), []string{"rpcconn/conn.go"}) {
		t.Fatalf("path: %+v", hits)
	}
	// Every word must match; case and accents do not matter.
	if hits := search(t, x, "README parser"); len(hits) != 1 || hits[0].SessionID != "sess-b" {
		t.Fatalf("README parser: %+v", hits)
	}
	if hits := search(t, x, "readme goroutine "); len(hits) != 0 {
		t.Fatalf("words of two sessions: %+v", hits)
	}
	// The last word is a prefix while typing, not after a space.
	if hits := search(t, x, "gorou"); len(hits) != 1 || !slices.Equal(matched(hits[0]), []string{"goroutine"}) {
		t.Fatalf("prefix: %+v", hits)
	}
	if hits := search(t, x, "gorou "); len(hits) != 0 {
		t.Fatalf("a finished word is no prefix: %+v", hits)
	}
	for _, q := range []string{"", "   ", "--", "*", `"`} {
		if hits, err := x.Search(context.Background(), q, 0); err != nil || hits != nil {
			t.Fatalf("%q: %v, %v", q, hits, err)
		}
	}
}

func TestSessionFilesTestdata(t *testing.T) {
	// The reader's fixtures: a real pi 0.73.1 recording, a version 1 file,
	// branches, and files that are no session.
	root := filepath.Join("..", "sessionfiles", "testdata", "sessions")
	x := openTest(t)
	st := update(t, x, root)
	if st.Files == 0 || st.Indexed == 0 || st.Skipped == 0 {
		t.Fatalf("stats %+v", st)
	}
	t.Logf("%+v", st)
	again := update(t, x, root)
	if again.Unchanged+again.Skipped != again.Files || again.Rows != 0 {
		t.Fatalf("second update: %+v", again)
	}
}

func TestUpdateAppend(t *testing.T) {
	root := t.TempDir()
	path := writeSession(t, root, "a.jsonl", headerLine("s", "/p"), msgLine(1, "user", "alpha beta"))
	x := openTest(t)
	update(t, x, root)
	before, _ := os.Stat(path)

	appendLines(t, path, msgLine(2, "assistant", "gamma delta alpha"))
	// A last line without LF is being written: left for the next Update.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	half := msgLine(3, "user", "epsilon alpha")
	f.WriteString(half[:len(half)/2])
	f.Close()
	st := update(t, x, root)
	after, _ := os.Stat(path)
	wantBytes := int64(len(msgLine(2, "assistant", "gamma delta alpha")) + 1)
	if st.Appended != 1 || st.Indexed != 0 || st.Rows != 1 || st.Bytes != wantBytes {
		t.Fatalf("append: %+v, want %d bytes read of %d", st, wantBytes, after.Size()-before.Size())
	}
	if hits := search(t, x, "gamma"); len(hits) != 1 || hits[0].EntryID != "e2" || hits[0].Line != 3 {
		t.Fatalf("gamma: %+v", hits)
	}
	if hits := search(t, x, "epsilon"); len(hits) != 0 {
		t.Fatalf("a half-written line is indexed: %+v", hits)
	}

	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(half[len(half)/2:] + "\n")
	f.Close()
	st = update(t, x, root)
	if st.Appended != 1 || st.Rows != 1 {
		t.Fatalf("finished line: %+v", st)
	}
	hits := search(t, x, "alpha")
	if len(hits) != 1 || hits[0].Count != 3 {
		t.Fatalf("alpha: %+v (each entry once)", hits)
	}
	if hits := search(t, x, "epsilon"); len(hits) != 1 || hits[0].EntryID != "e3" || hits[0].Line != 4 || hits[0].Snippet != "epsilon alpha" {
		t.Fatalf("epsilon: %+v", hits)
	}
	if st := update(t, x, root); st.Unchanged != 1 || st.Rows != 0 || st.Bytes != 0 {
		t.Fatalf("nothing new: %+v", st)
	}
}

func TestUpdateChangeAndDelete(t *testing.T) {
	root := t.TempDir()
	a := writeSession(t, root, "a.jsonl", headerLine("s", "/p"), msgLine(1, "user", "original words here"))
	b := writeSession(t, root, "b.jsonl", headerLine("t", "/p"), msgLine(1, "user", "second session"))
	x := openTest(t)
	update(t, x, root)

	// Rewritten: as long as before, or longer, with other words.
	writeSession(t, root, "a.jsonl", headerLine("s", "/p"), msgLine(1, "user", "replaced words here"), msgLine(2, "user", "more"))
	bumpTime(t, a, time.Second)
	st := update(t, x, root)
	if st.Indexed != 1 || st.Appended != 0 || st.Unchanged != 1 {
		t.Fatalf("rewrite: %+v", st)
	}
	if hits := search(t, x, "original"); len(hits) != 0 {
		t.Fatalf("old words: %+v", hits)
	}
	if hits := search(t, x, "replaced"); len(hits) != 1 || hits[0].Path != a || hits[0].Snippet != "replaced words here" {
		t.Fatalf("new words: %+v", hits)
	}
	// Same size, other bytes, same time stamp: caught by the hashes once
	// the size or time differ; here the time is moved.
	writeSession(t, root, "a.jsonl", headerLine("s", "/p"), msgLine(1, "user", "REPLACED words here"), msgLine(2, "user", "MORE"))
	bumpTime(t, a, 2*time.Second)
	if st := update(t, x, root); st.Indexed != 1 {
		t.Fatalf("same size: %+v", st)
	}
	if hits := search(t, x, "more"); len(hits) != 1 || hits[0].Snippet != "MORE" {
		t.Fatalf("same size: %+v", hits)
	}

	// Shorter: read again.
	writeSession(t, root, "a.jsonl", headerLine("s", "/p"), msgLine(1, "user", "short"))
	if st := update(t, x, root); st.Indexed != 1 {
		t.Fatalf("shorter: %+v", st)
	}
	if hits := search(t, x, "words"); len(hits) != 0 {
		t.Fatalf("shorter: %+v", hits)
	}

	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	st = update(t, x, root)
	if st.Removed != 1 || st.Files != 1 {
		t.Fatalf("delete: %+v", st)
	}
	if hits := search(t, x, "second"); len(hits) != 0 {
		t.Fatalf("deleted session found: %+v", hits)
	}
	var rows int
	if err := x.rd.QueryRow(`SELECT count(*) FROM entries`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("entries left: %d, %v", rows, err)
	}

	// A file changed after it was indexed, before the next Update: the hit
	// is still there, without a snippet made of other bytes.
	writeSession(t, root, "a.jsonl", headerLine("s", "/p"), msgLine(9, "user", "short"))
	hits := search(t, x, "short")
	if len(hits) != 1 || hits[0].Snippet != "" || hits[0].Matches != nil {
		t.Fatalf("stale: %+v", hits)
	}
}

func TestSkippedFiles(t *testing.T) {
	root := t.TempDir()
	writeSession(t, root, "empty.jsonl")
	writeSession(t, root, "text.jsonl", "hello there", "not json")
	writeSession(t, root, "other.jsonl", `{"level":"info","msg":"hello"}`, `{"level":"info","msg":"there"}`)
	writeSession(t, root, "ok.jsonl", headerLine("s", "/p"), msgLine(1, "user", "hello"))
	x := openTest(t)
	st := update(t, x, root)
	if st.Files != 4 || st.Skipped != 3 || st.Indexed != 1 {
		t.Fatalf("%+v", st)
	}
	if hits := search(t, x, "hello"); len(hits) != 1 {
		t.Fatalf("%+v", hits)
	}
	if st := update(t, x, root); st.Skipped != 3 || st.Unchanged != 1 {
		t.Fatalf("again: %+v", st)
	}
}

func TestVersion1AndNames(t *testing.T) {
	root := t.TempDir()
	// Version 1: no ids; sessionfiles numbers the entries v1-1, v1-2, …
	writeSession(t, root, "v1.jsonl",
		`{"type":"session","id":"old","timestamp":"2024-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","timestamp":"2024-01-01T00:00:01Z","message":{"role":"user","content":"first question"}}`,
		`{"type":"message","timestamp":"2024-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"an answer about zebras"}]}}`,
		`{"type":"session_info","name":"  Zebra work  "}`,
	)
	x := openTest(t)
	update(t, x, root)
	hits := search(t, x, "zebras")
	if len(hits) != 1 || hits[0].EntryID != "v1-2" || hits[0].Snippet != "an answer about zebras" || hits[0].Name != "Zebra work" {
		t.Fatalf("%+v", hits)
	}
	if hits := search(t, x, "zebra work"); len(hits) != 1 || hits[0].Kind != KindName || hits[0].EntryID != "v1-3" {
		t.Fatalf("name: %+v", hits)
	}
}

func TestSnippetWindowAndRanges(t *testing.T) {
	long := strings.Repeat("filler words go on and on here ", 40)
	root := t.TempDir()
	writeSession(t, root, "a.jsonl", headerLine("s", "/p"),
		msgLine(1, "user", long+"the Café résumé was naïve\n\n  about 数据库 索引 "+long),
		msgLine(2, "user", "数据库索引很快"),
	)
	x := openTest(t)
	update(t, x, root)

	h := search(t, x, "cafe resume")[0]
	if !strings.HasPrefix(h.Snippet, "…") || !strings.HasSuffix(h.Snippet, "…") || strings.Contains(h.Snippet, "\n") {
		t.Fatalf("snippet %q", h.Snippet)
	}
	if got := matched(h); !slices.Equal(got, []string{"Café", "résumé"}) {
		t.Fatalf("byte ranges give %q in %q", got, h.Snippet)
	}
	runes := []rune(h.Snippet)
	var got []string
	for _, r := range RuneRanges(h.Snippet, h.Matches) {
		got = append(got, string(runes[r.Start:r.End]))
	}
	if !slices.Equal(got, []string{"Café", "résumé"}) {
		t.Fatalf("rune ranges give %q", got)
	}

	// Chinese: each character a token, a word of several a phrase, found
	// inside a sentence with no spaces, highlighted as one range.
	hits := search(t, x, "数据库")
	if len(hits) != 1 || hits[0].Count != 2 {
		t.Fatalf("数据库: %+v", hits)
	}
	for _, q := range []string{"数据库", "索引"} {
		x2 := search(t, x, q+" 很快")
		if len(x2) != 1 || x2[0].EntryID != "e2" || x2[0].Snippet != "数据库索引很快" {
			t.Fatalf("%s: %+v", q, x2)
		}
		if m := matched(x2[0]); !slices.Contains(m, q) || !slices.Contains(m, "很快") {
			t.Fatalf("%s: matches %q", q, m)
		}
	}
}

func TestRanking(t *testing.T) {
	root := t.TempDir()
	// All entries at the same time, so age plays no part.
	writeSession(t, root, "once.jsonl", headerLine("once", "/p"),
		msgLine(1, "user", "a long message that mentions kubernetes once among many other words about this and that and more"))
	writeSession(t, root, "often.jsonl", headerLine("often", "/p"),
		msgLine(1, "user", "kubernetes kubernetes deployment"),
		msgLine(1, "assistant", "the kubernetes deployment failed"),
		msgLine(1, "user", "retry kubernetes"))
	writeSession(t, root, "thinking.jsonl", headerLine("thinking", "/p"),
		thinkingLine(1, "maybe kubernetes is the problem", "no idea"))
	x := openTest(t)
	update(t, x, root)
	hits := search(t, x, "kubernetes")
	if got := sessionNames(hits); !slices.Equal(got, []string{"often.jsonl", "once.jsonl", "thinking.jsonl"}) {
		t.Fatalf("order %q", got)
	}
	if hits[0].Count != 3 || hits[0].EntryID != "e1" || hits[0].Score <= hits[1].Score {
		t.Fatalf("best %+v", hits[0])
	}
	// Recent sessions first when the words match as well.
	old := writeSession(t, root, "old.jsonl", headerLine("old", "/p"), msgLine(1, "user", "zeppelin"))
	newer := strings.Replace(msgLine(1, "user", "zeppelin"), "2026-03-01", time.Now().UTC().Format("2006-01-02"), 1)
	writeSession(t, root, "new.jsonl", headerLine("new", "/p"), newer)
	update(t, x, root)
	if got := sessionNames(search(t, x, "zeppelin")); !slices.Equal(got, []string{"new.jsonl", "old.jsonl"}) {
		t.Fatalf("recent first: %q (%s)", got, old)
	}
	// The limit.
	hits, err := x.Search(context.Background(), "kubernetes", 2)
	if err != nil || len(hits) != 2 {
		t.Fatalf("limit: %d, %v", len(hits), err)
	}
}

// TestLimitIsPrefix: the best few hits are the first of the many, whatever
// the limit (Search reads timestamps only for the candidates that can make
// the limit).
func TestLimitIsPrefix(t *testing.T) {
	root := t.TempDir()
	// Sessions of the last two days, and an age boost that halves in
	// six hours: the timestamps change the order.
	old := ranking.halfLife
	ranking.halfLife = 6 * time.Hour
	t.Cleanup(func() { ranking.halfLife = old })
	g := newSessionGen(5)
	start := time.Now().Add(-48 * time.Hour)
	os.MkdirAll(filepath.Join(root, "--p--"), 0o755)
	for i := range 16 {
		at := start.Add(time.Duration(i) * 3 * time.Hour)
		if _, err := g.write(filepath.Join(root, "--p--", fmt.Sprintf("s%02d.jsonl", i)), int64(40+i%5*30)<<10, "/p", at); err != nil {
			t.Fatal(err)
		}
	}
	x := openTest(t)
	update(t, x, root)
	for _, q := range []string{"the", "goroutine", "config", "数据库", "cafe"} {
		all, err := x.Search(context.Background(), q, 1000)
		if err != nil || len(all) < 5 {
			t.Fatalf("%q: %d hits, %v", q, len(all), err)
		}
		for _, limit := range []int{1, 3, 5} {
			few, err := x.Search(context.Background(), q, limit)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sessionNames(few), sessionNames(all[:limit]); !slices.Equal(got, want) {
				t.Fatalf("%q limit %d: %q, want %q", q, limit, got, want)
			}
		}
		for i := 1; i < len(all); i++ {
			if all[i].Score > all[i-1].Score {
				t.Fatalf("%q: not in order of score at %d", q, i)
			}
		}
	}
}
