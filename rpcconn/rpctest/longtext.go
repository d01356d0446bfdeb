package rpctest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// The long replies the UI benchmarks stream ([[lines:N]], [[words:N]],
// [[word:BYTES]], [[mixedline:BYTES]]). Each is the same text on every run:
// the random source has a fixed seed.

// wordChunk is how many words a delta of [[words:N]] carries: models stream
// a few tokens at a time, and a 50,000-word answer at two words a delta would
// take the benchmark longer to stream than to measure.
const wordChunk = 8

// lineChunk is the same for [[lines:N]].
const lineChunk = 4

// blobChunk is the default delta size of [[word:BYTES]] and
// [[mixedline:BYTES]].
const blobChunk = 64 << 10

type textGen struct{ r *rand.Rand }

func newTextGen(seed uint64) *textGen { return &textGen{rand.New(rand.NewPCG(seed, 0x6b6e69676874))} }

func (g *textGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

var (
	ltNouns = []string{"session", "controller", "widget", "transcript", "editor", "decoder", "buffer", "event",
		"response", "command", "reader", "writer", "layout", "theme", "sidebar", "cache", "frame", "queue",
		"parser", "renderer", "handler", "request", "timeout", "context", "channel", "goroutine", "test", "scrollbar"}
	ltVerbs = []string{"handles", "returns", "reads", "writes", "decodes", "wraps", "caches", "renders", "checks",
		"updates", "measures", "drops", "coalesces", "streams", "parses", "validates", "retries", "closes"}
	ltAdjs = []string{"empty", "stale", "long", "partial", "nested", "cached", "pending", "broken", "wrapped",
		"visible", "current", "previous", "unbounded", "slow", "missing", "duplicate", "final", "first"}
	ltFuncs = []string{"handleEvent", "applyDelta", "loadHistory", "drawFrame", "decodeLine", "flushQueue",
		"measureRow", "wrapText", "parseBlock", "startAgent", "sendCommand", "resizeRows", "cacheHeight"}
	ltFiles = []string{"app/controller.go", "app/session.go", "widgets/chatview.go", "widgets/markdown.go",
		"rpcconn/conn.go", "rpcconn/decode.go", "app/history.go", "widgets/codeblock.go"}
	ltLinks = []string{"then", "because", "while", "after", "so", "unless", "before", "once"}
)

// sentence is one plain sentence of 8 to 20 words ending in a full stop.
func (g *textGen) sentence() string {
	s := fmt.Sprintf("The %s %s %s the %s %s", g.pick(ltAdjs), g.pick(ltNouns), g.pick(ltVerbs), g.pick(ltAdjs), g.pick(ltNouns))
	for n := g.r.IntN(3); n > 0; n-- {
		s += fmt.Sprintf(" %s the %s %s", g.pick(ltLinks), g.pick(ltNouns), g.pick(ltVerbs))
		if g.r.IntN(2) == 0 {
			s += " " + article(g.pick(ltAdjs)) + " " + g.pick(ltNouns)
		}
	}
	return s + "."
}

// article puts "a" or "an" before word.
func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// richSentence is a sentence with, now and then, inline code or bold.
func (g *textGen) richSentence() string {
	s := g.sentence()
	switch g.r.IntN(5) {
	case 0:
		s = strings.TrimSuffix(s, ".") + fmt.Sprintf(", so `%s` in `%s` must run first.", g.pick(ltFuncs), g.pick(ltFiles))
	case 1:
		s = strings.TrimSuffix(s, ".") + fmt.Sprintf(" and the **%s** path %s it.", g.pick(ltAdjs), g.pick(ltVerbs))
	}
	return s
}

func (g *textGen) paragraph() string {
	parts := make([]string, 3+g.r.IntN(4))
	for i := range parts {
		parts[i] = g.richSentence()
	}
	return strings.Join(parts, " ")
}

func (g *textGen) list() string {
	items := make([]string, 3+g.r.IntN(4))
	numbered := g.r.IntN(2) == 0
	for i := range items {
		mark := "-"
		if numbered {
			mark = fmt.Sprintf("%d.", i+1)
		}
		items[i] = mark + " " + g.richSentence()
	}
	return strings.Join(items, "\n")
}

func (g *textGen) code() string {
	fn := g.pick(ltFuncs)
	var b strings.Builder
	typ := g.pick(ltNouns)
	fmt.Fprintf(&b, "```go\nfunc %s(%s *%s) error {\n", fn, typ[:1], strings.ToUpper(typ[:1])+typ[1:])
	for n := 3 + g.r.IntN(8); n > 0; n-- {
		switch g.r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "\tif err := %s(ctx, %q); err != nil {\n\t\treturn fmt.Errorf(\"%s: %%w\", err)\n\t}\n", g.pick(ltFuncs), g.pick(ltFiles), g.pick(ltNouns))
		case 1:
			fmt.Fprintf(&b, "\t%s := len(%ss) // the %s %s\n", g.pick(ltNouns), g.pick(ltNouns), g.pick(ltAdjs), g.pick(ltNouns))
		default:
			fmt.Fprintf(&b, "\tfor i := range %ss {\n\t\t%ss[i].%s()\n\t}\n", g.pick(ltNouns), g.pick(ltNouns), g.pick(ltFuncs))
		}
	}
	b.WriteString("\treturn nil\n}\n```")
	return b.String()
}

// exactly is a paragraph of exactly n words (n ≥ 1).
func (g *textGen) exactly(n int) string {
	words := strings.Fields(g.sentence())
	for len(words) < n {
		words = append(words, strings.Fields(g.sentence())...)
	}
	return strings.TrimSuffix(strings.Join(words[:n], " "), ".") + "."
}

// linesText is n lines, each one sentence, with a blank line between them so
// each is its own paragraph and shows as a line of its own: what a model
// writes when asked for "500 lines of text".
func linesText(n int) string {
	g := newTextGen(500)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.sentence()
	}
	return strings.Join(lines, "\n\n") + "\n"
}

// wordsText is a long answer of exactly n words (as strings.Fields counts
// them, markup and code included): sections with headings, paragraphs with
// inline code and bold, bullet and numbered lists and fenced Go code blocks,
// the way a model writes a long explanation.
func wordsText(n int) string {
	g := newTextGen(50000)
	var parts []string
	left := n
	add := func(s string) bool {
		c := len(strings.Fields(s))
		if c > left {
			return false
		}
		parts = append(parts, s)
		left -= c
		return true
	}
	for section := 1; left > 0; section++ {
		pieces := []string{fmt.Sprintf("## %d. The %s %s", section, g.pick(ltAdjs), g.pick(ltNouns)), g.paragraph()}
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			switch g.r.IntN(4) {
			case 0:
				pieces = append(pieces, g.list())
			case 1:
				pieces = append(pieces, g.code())
			default:
				pieces = append(pieces, g.paragraph())
			}
		}
		for _, p := range pieces {
			if !add(p) {
				parts = append(parts, g.exactly(left))
				left = 0
				break
			}
		}
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// oneWord is a single word of exactly n bytes: no spaces, no punctuation.
// Every 32 bytes start with their offset in hex, so a reader that lost or
// duplicated data shows where.
func oneWord(n int) string {
	var b strings.Builder
	b.Grow(n + 32)
	for off := 0; b.Len() < n; off += 32 {
		fmt.Fprintf(&b, "%08x%s", off, "abcdefghijklmnopqrstuvwx")
	}
	return b.String()[:n]
}

// mixedFragments make up [[mixedline]]: prose, punctuation, inline code,
// brackets, JSON, a URL, markdown emphasis and multibyte letters.
var mixedFragments = []string{
	"The call `cfg, err := config.Load(path)` returns (nil, ErrNotFound) when the file is missing; ",
	"see https://example.com/docs/config?section=load&v=2#errors for the details, ",
	"and note that x[i] += y*2 — not x[i] = x[i]+y*2 — keeps the loop O(n). ",
	`{"key": [1, 2, 3], "ok": true, "path": "C:\\tmp\\a.txt"} `,
	"Grüße, naïve café, ✓ 日本語 😀; ",
	"**bold** and _emphasis_ with <angle> brackets & ampersands! ",
	"if (a && b || !c) { return -1; } else { i++; } ",
	"\"quoted\", 'single', ~tilde~, ^caret^, 100% | pipes | and \\backslashes\\... ",
}

// mixedLine is one line of exactly n bytes of mixed text without a newline,
// valid UTF-8 throughout.
func mixedLine(n int) string {
	var b strings.Builder
	b.Grow(n + 128)
	for i := 0; b.Len() < n; i++ {
		b.WriteString(mixedFragments[i%len(mixedFragments)])
		if i%len(mixedFragments) == len(mixedFragments)-1 {
			fmt.Fprintf(&b, "(#%d) ", i/len(mixedFragments)+1)
		}
	}
	s := b.String()
	if len(s) == n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + strings.Repeat(".", n-cut)
}

// chunkWords cuts text after every k-th space.
func chunkWords(text string, k int) []string {
	words := strings.SplitAfter(text, " ")
	var out []string
	for i := 0; i < len(words); i += k {
		out = append(out, strings.Join(words[i:min(i+k, len(words))], ""))
	}
	return out
}

// chunkBytes cuts s into pieces of at most size bytes, on rune boundaries
// (a delta must be valid UTF-8 to survive JSON).
func chunkBytes(s string, size int) []string {
	size = max(size, utf8.UTFMax)
	var out []string
	for i := 0; i < len(s); {
		j := min(i+size, len(s))
		for j < len(s) && !utf8.RuneStart(s[j]) {
			j--
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}
