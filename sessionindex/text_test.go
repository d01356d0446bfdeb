package sessionindex

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"go", `"go"*`},
		{"go ", `"go"`},
		{"g", `"g"`},
		{"goroutine deadlock", `"goroutine" "deadlock"*`},
		{"src/main.go", `"src main go"*`},
		{"src/main.go ", `"src main go"`},
		{"main.", `"main"*`},
		// FTS5 syntax is text.
		{`"quoted phrase"`, `"quoted" "phrase"*`},
		{`say "hi`, `"say" "hi"*`},
		{`a"b`, `"a b"`},
		{"leak*", `"leak"*`},
		{"leak* mutex ", `"leak"* "mutex"`},
		{"a* b", `"a" "b"`},
		{"ab* cd", `"ab"* "cd"*`},
		{"*", ""},
		{"-lock", `"lock"*`},
		{"mutex -lock", `"mutex" "lock"*`},
		{"NOT this", `"NOT" "this"*`},
		{"this OR that", `"this" "OR" "that"*`},
		{"a AND b", `"a" "AND" "b"`},
		{"NEAR(cache index)", `"NEAR cache" "index"*`},
		{"NEAR", `"NEAR"*`},
		{"schema:migration", `"schema migration"*`},
		{"text:foo", `"text foo"*`},
		{"^start", `"start"*`},
		{"{prompt text}: x", `"prompt" "text" "x"`},
		{"a + b", `"a" "b"`},
		{"(", ""},
		{"'single'", `"single"*`},
		{"\x00nul\x01", `"nul"*`},
		{"\xff\xfebad utf8", `"bad" "utf8"*`},
		// CJK: a token per character; no prefix on a CJK character.
		{"数据库", `"数 据 库"`},
		{"数据库abc", `"数 据 库abc"*`},
		{"Café", `"Café"*`},
		{"tab\tand\nnewline", `"tab" "and" "newline"*`},
	} {
		if got := parseQuery(c.in).fts; got != c.want {
			t.Errorf("parseQuery(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestQueriesRun runs queries full of FTS5 syntax against an index: none
// is an error, and each finds what its words say.
func TestQueriesRun(t *testing.T) {
	root := t.TempDir()
	writeSession(t, root, "a.jsonl", headerLine("s", "/p"),
		msgLine(1, "user", `NOT a drill: say "hi" to NEAR(cache index) and text:foo, then schema:migration OR AND`),
		msgLine(2, "user", "mutex lock leakage in src/main.go (see ^start)"),
	)
	x := openTest(t)
	update(t, x, root)
	for _, c := range []struct {
		q    string
		want int
	}{
		{`NOT a drill`, 1}, {`say "hi`, 1}, {`"hi" to`, 1}, {`NEAR(cache index)`, 1}, {`text:foo`, 1},
		{`schema:migration`, 1}, {`OR AND`, 1}, {`AND`, 1}, {`NOT`, 1}, {`mutex -lock`, 1}, {`leak*`, 1},
		{`leak* `, 1}, {`(see`, 1}, {`^start)`, 1}, {`src/main.go`, 1}, {`main.go src`, 1},
		{`"unclosed`, 0}, {`((((`, 0}, {`***`, 0}, {`-`, 0}, {`:`, 0}, {`a:b:c`, 0}, {`NEAR/3`, 0},
		{`drill NOT`, 1}, {`cache NEAR index`, 1}, {`\"`, 0}, {"\u200b", 0}, {"数据库", 0},
	} {
		hits, err := x.Search(context.Background(), c.q, 0)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if len(hits) != c.want {
			t.Errorf("%q: %d hits, want %d", c.q, len(hits), c.want)
		}
	}
}

// TestTokensAsSQLite checks the Go tokenizer against unicode61's own
// tokens, read back from the index with fts5vocab.
func TestTokensAsSQLite(t *testing.T) {
	x := openTest(t)
	samples := []string{
		"Hello, World! parseConfig src/main.go x_y-z version2.0 it's",
		"Café résumé naïve über façade jalapeño déjà coöperate ÅNGSTRÖM Ærø",
		"数据库索引很快 ひらがな カタカナ 한국어 mixed数据abc",
		"Ωmega Σίσυφος Привет мир ёлка",
		"१२३ ١٢٣ ①② smile a\u00a0b tab\tnew\nline हिन्दी",
		"e\u0301cole",
		"a©b a→b a™b a°b a€b a😀b a✓b a\U0001F600b a$b a+b a<b a|b a~b a^b a`b",
		"ŁÓDŹ Øre ß ﬁle Ǆ İstanbul ı Œuvre ŉ ĳ",
		"x\u0308y x\u093fy x\u20dd y",
		"\U00010400 \U0001D400 \U00020000 \U000F0000",
	}
	if _, err := x.wr.Exec(`CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, 'instance')`); err != nil {
		t.Fatal(err)
	}
	for i, s := range samples {
		id := int64(1)<<32 | int64(i)
		if _, err := x.wr.Exec(`INSERT INTO fts(rowid, text) VALUES(?, ?)`, id, clean(s, len(s))); err != nil {
			t.Fatal(err)
		}
		rows, err := x.wr.Query(`SELECT term FROM temp.vocab WHERE doc = ? ORDER BY offset`, id)
		if err != nil {
			t.Fatal(err)
		}
		var sqlite []string
		for rows.Next() {
			var term string
			rows.Scan(&term)
			sqlite = append(sqlite, term)
		}
		rows.Close()
		var ours []string
		tokens(s, func(start, end int) { ours = append(ours, fold(s[start:end])) })
		if !slices.Equal(ours, sqlite) {
			t.Errorf("%q:\n ours   %q\n sqlite %q", s, ours, sqlite)
		}
	}
}

func TestSnippetFunc(t *testing.T) {
	ph := func(q string) []phrase { return parseQuery(q).phrases }
	for _, c := range []struct {
		text, q, want string
	}{
		{"short text here", "text ", "short [text] here"},
		{"  leading\n\nand   trailing  \t", "and ", "leading [and] trailing"},
		{"one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
			"twelve ", "… eight nine ten eleven [twelve] thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"},
		{"one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
			"one ", "[one] two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen …"},
		// The window with both words, though the first word comes earlier.
		{"alpha x x x x x x x x x x x x x x x x x x x x x x x x x x x x x alpha beta", "alpha beta ", "… x x x x [alpha] [beta]"},
		{"see src/main.go:12 now", "src/main.go ", "see [src/main.go]:12 now"},
		{"prefix: goroutines", "gorou", "prefix: [goroutines]"},
		{"ÉCOLE école ecole", "ecole ", "[ÉCOLE] [école] [ecole]"},
		{"数据库索引很快", "索引", "数据库[索引]很快"},
		{"no match at all", "zebra ", "no match at all"},
		{strings.Repeat("x", 100) + " word", "word ", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… [word]"},
		{"a " + strings.Repeat("=", 100) + " word", "word ", "a =========== … [word]"},
	} {
		s, rs, _ := snippet(c.text, ph(c.q), snippetTokens)
		var sb strings.Builder
		at := 0
		for _, r := range rs {
			sb.WriteString(s[at:r.Start] + "[" + s[r.Start:r.End] + "]")
			at = r.End
		}
		sb.WriteString(s[at:])
		if sb.String() != c.want {
			t.Errorf("snippet(%q, %q)\n got  %s\n want %s", c.text, c.q, sb.String(), c.want)
		}
	}
}

func TestRuneRanges(t *testing.T) {
	s := "né à 数据 x"
	got := RuneRanges(s, []Range{{0, 3}, {4, 6}, {7, 13}, {14, 15}})
	want := []Range{{0, 2}, {3, 4}, {5, 7}, {8, 9}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("RuneRanges = %v, want %v", got, want)
	}
}
