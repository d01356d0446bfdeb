package rpctest_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// longReply streams the reply to prompt and returns its text deltas and
// the text message_end reports, which must be the deltas joined.
func longReply(t *testing.T, prompt string) (deltas []string, text string) {
	t.Helper()
	f := startFake(t)
	f.call("prompt", "message", prompt)
	recs := f.untilType("agent_settled")
	for _, r := range recs {
		if r.event() == "text_delta" {
			deltas = append(deltas, r.str("assistantMessageEvent", "delta"))
		}
		if r.typ() == "message_end" && r.str("message", "role") == "assistant" {
			text = textOf(r["message"])
		}
	}
	if joined := strings.Join(deltas, ""); joined != text {
		t.Fatalf("%s: the deltas (%d bytes) and message_end (%d bytes) disagree", prompt, len(joined), len(text))
	}
	return deltas, text
}

func TestLinesReplyIsOneSentenceALine(t *testing.T) {
	t.Parallel()
	deltas, text := longReply(t, "[[lines:500]]")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n\n")
	if len(lines) != 500 {
		t.Fatalf("%d paragraphs, want 500", len(lines))
	}
	for i, l := range lines {
		if strings.Contains(l, "\n") || !strings.HasSuffix(l, ".") || strings.Count(l, ". ") > 0 || len(strings.Fields(l)) < 6 {
			t.Fatalf("line %d is not one sentence: %q", i+1, l)
		}
	}
	if lines[0] == lines[1] {
		t.Errorf("the lines repeat: %q", lines[0])
	}
	if len(deltas) < 500 {
		t.Errorf("%d deltas: a few words a delta wanted", len(deltas))
	}
	_, again := longReply(t, "[[lines:500]]")
	if again != text {
		t.Error("the same marker streamed a different text")
	}
}

func TestWordsReplyIsALongMarkdownAnswer(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 37, 50000} {
		deltas, text := longReply(t, "[[words:"+strconv.Itoa(n)+"]]")
		if got := len(strings.Fields(text)); got != n {
			t.Errorf("[[words:%d]]: %d words", n, got)
		}
		if n < 50000 {
			continue
		}
		for _, want := range []string{"\n## ", "\n- ", "\n1. ", "\n```go\n", "`", "**"} {
			if !strings.Contains(text, want) {
				t.Errorf("[[words:%d]]: no %q in the answer", n, want)
			}
		}
		if fences := strings.Count(text, "```"); fences == 0 || fences%2 != 0 {
			t.Errorf("[[words:%d]]: %d code fences: every block must be closed", n, fences)
		}
		if paras := strings.Count(text, "\n\n"); paras < 500 {
			t.Errorf("[[words:%d]]: %d blocks: paragraphs wanted, not a wall of text", n, paras)
		}
		if len(deltas) < n/10 || len(deltas) > n/4 {
			t.Errorf("[[words:%d]]: %d deltas, want a few words each", n, len(deltas))
		}
	}
}

func TestWordReplyIsOneWordInChunks(t *testing.T) {
	t.Parallel()
	deltas, text := longReply(t, "[[word:1MiB]]")
	if len(text) != 1<<20 {
		t.Fatalf("%d bytes, want 1 MiB", len(text))
	}
	if strings.ContainsFunc(text, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'z') }) {
		t.Error("the word holds something other than letters and digits")
	}
	if len(deltas) != 16 {
		t.Errorf("%d deltas, want 16 of 64 KiB", len(deltas))
	}
	for i, d := range deltas {
		if len(d) != 64<<10 {
			t.Fatalf("delta %d is %d bytes", i, len(d))
		}
	}
	// Offsets show where data went missing.
	if !strings.HasPrefix(text[64<<10:], "00010000") {
		t.Errorf("the second delta starts %q", text[64<<10:(64<<10)+8])
	}

	deltas, text = longReply(t, "[[word:10000:4KiB]]")
	if len(text) != 10000 || len(deltas) != 3 || len(deltas[0]) != 4096 || len(deltas[2]) != 10000-8192 {
		t.Errorf("[[word:10000:4KiB]]: %d bytes in %d deltas", len(text), len(deltas))
	}
}

func TestMixedLineIsOneLineOfEverything(t *testing.T) {
	t.Parallel()
	deltas, text := longReply(t, "[[mixedline:1MiB]]")
	if len(text) != 1<<20 || !utf8.ValidString(text) {
		t.Fatalf("%d bytes, valid UTF-8 %v; want 1 MiB of valid UTF-8", len(text), utf8.ValidString(text))
	}
	if strings.ContainsAny(text, "\n\r\u2028\u2029") {
		t.Error("the line holds a line break")
	}
	for _, want := range []string{" ", "`", "(", "[", "{", `"`, ";", "—", "日本語", "https://", "**", "&&"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the line", want)
		}
	}
	if len(deltas) < 16 || len(deltas) > 17 {
		t.Errorf("%d deltas, want 64 KiB ones", len(deltas))
	}
	for i, d := range deltas {
		if len(d) > 64<<10 || !utf8.ValidString(d) {
			t.Fatalf("delta %d: %d bytes, valid %v", i, len(d), utf8.ValidString(d))
		}
	}
}

func TestLinesReplyTakesWordsADelta(t *testing.T) {
	t.Parallel()
	few, text := longReply(t, "[[lines:500]]")
	many, same := longReply(t, "[[lines:500:13]]")
	if same != text {
		t.Fatal("[[lines:500:13]] streamed another text than [[lines:500]]")
	}
	words := len(strings.SplitAfter(text, " "))
	if want := (words + 12) / 13; len(many) != want {
		t.Errorf("[[lines:500:13]]: %d deltas, want %d (13 words a delta)", len(many), want)
	}
	if len(many) >= len(few) {
		t.Errorf("13 words a delta gave %d deltas, 4 gave %d", len(many), len(few))
	}
}
