package rpctest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// block is one content block of a planned reply, already cut into deltas.
type block struct {
	kind   string // "thinking", "text" or "toolCall"
	deltas []string
	call   *toolCallContent // for "toolCall": the finished call
}

type plan struct {
	blocks       []block
	stopReason   string
	errorMessage string
	retryable    bool
}

type replyInput struct {
	sc       *script
	prompts  []string // the user messages of this turn, markers removed
	images   int
	answers  []string
	outcomes []toolOutcome // of the previous turn's tool calls
	attempt  int
}

const (
	overloadedError = `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	providerError   = "400 invalid_request_error: the fake provider refused this request"
)

// planReply decides the whole assistant message before it streams, so what
// message_end reports is exactly what the deltas built.
func planReply(in replyInput, m *model) plan {
	sc := in.sc
	p := plan{stopReason: "stop"}
	if sc.retry && in.attempt < sc.retryFailures {
		p.blocks = []block{{kind: "text", deltas: []string{"Let me ", "look at"}}}
		p.stopReason, p.errorMessage, p.retryable = "error", overloadedError, true
		return p
	}
	if sc.think && len(in.outcomes) == 0 {
		p.blocks = append(p.blocks, block{kind: "thinking", deltas: chunks(thinkingText)})
	}
	p.blocks = append(p.blocks, block{kind: "text", deltas: replyDeltas(in, m)})
	if len(in.outcomes) == 0 && !sc.toolsDone && len(sc.tools) > 0 {
		sc.toolsDone = true
		for _, t := range sc.tools {
			call := &toolCallContent{Type: "toolCall", ID: "call_" + newID(), Name: t.name, Arguments: toolArgs(t),
				noDiff: t.name == "edit" && strings.HasSuffix(t.arg, ":nodiff")}
			pieces := 3
			if t.name == "edit" || t.name == "write" {
				pieces = 12 // long arguments: a client shows them as they stream
			}
			p.blocks = append(p.blocks, block{kind: "toolCall", call: call, deltas: splitRunes(string(mustJSON(call.Arguments)), pieces)})
		}
		p.stopReason = "toolUse"
	}
	switch {
	case sc.errorStop:
		// The provider fails part-way: no tool call, half the text, the error.
		for p.blocks[len(p.blocks)-1].kind == "toolCall" {
			p.blocks = p.blocks[:len(p.blocks)-1]
		}
		last := &p.blocks[len(p.blocks)-1]
		last.deltas = last.deltas[:(len(last.deltas)+1)/2]
		p.stopReason, p.errorMessage = "error", providerError
	case sc.length && p.stopReason == "stop":
		p.stopReason = "length"
	}
	return p
}

func replyDeltas(in replyInput, m *model) []string {
	sc := in.sc
	var d []string
	if len(in.outcomes) > 0 {
		for _, o := range in.outcomes {
			d = append(d, chunks(o.summary())...)
		}
		if len(in.prompts) > 0 {
			d = append(d, chunks(fmt.Sprintf("\n\nNoted while working: *%s*.", strings.Join(in.prompts, " / ")))...)
		}
		return d
	}
	switch {
	case sc.long > 0:
		d = longDeltas(sc.long)
	case sc.lines > 0:
		d = chunkWords(linesText(sc.lines), sc.lineChunk)
	case sc.words > 0:
		d = chunkWords(wordsText(sc.words), wordChunk)
	case sc.word > 0:
		d = chunkBytes(oneWord(sc.word), sc.blobChunk)
	case sc.mixedLine > 0:
		d = chunkBytes(mixedLine(sc.mixedLine), sc.blobChunk)
	case sc.markdown:
		d = chunks(markdownText)
	case len(sc.tools) > 0 && !sc.toolsDone:
		d = chunks(fmt.Sprintf("I will use the `%s` tool.", sc.tools[0].name))
	default:
		said := ""
		if q := strings.Join(in.prompts, " / "); q != "" {
			said = fmt.Sprintf(" You said: *%s*", q)
		}
		d = chunks("Hello from the **fake agent**." + said +
			"\n\nThis reply is scripted:\n\n- no model was called\n- markers in the prompt choose the reply\n")
	}
	if sc.huge > 0 {
		d = append(d, hugeDelta(sc.huge))
	}
	if sc.u2028 {
		d = append(d, "\n\nLine\u2028separator and paragraph\u2029separator, raw inside one JSON string.")
	}
	if sc.splitWrites {
		d = append(d, chunks("\n\nMultibyte text to cut: Grüße, naïve café, ✓ 日本語 😀 ✓.")...)
	}
	for _, ans := range in.answers {
		d = append(d, "\n\n"+ans)
	}
	if in.images > 0 {
		note := fmt.Sprintf("\n\nI see %d image(s).", in.images)
		if m != nil && !m.acceptsImages() {
			note = fmt.Sprintf("\n\n%d image(s) were dropped: %s reads text only.", in.images, m.key())
		}
		d = append(d, note)
	}
	return d
}

const thinkingText = "The user wants a scripted reply. Steps:\n1. Read the markers.\n2. Pick the canned text.\n3. Answer briefly."

const markdownText = "# A scripted heading\n\n" +
	"Some **bold**, some *italic*, `inline code` and a [link](https://example.com).\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello from the fake agent\")\n}\n```\n\n" +
	"| Marker | Effect |\n|---|---|\n| `[[think]]` | thinking first |\n| `[[long:N]]` | N deltas |\n\n" +
	"> A quote, then a list:\n\n1. one\n2. two\n   - nested\n"

// chunks cuts text after every second space, close to how providers stream.
func chunks(text string) []string {
	words := strings.SplitAfter(text, " ")
	var out []string
	for i := 0; i < len(words); i += 2 {
		out = append(out, strings.Join(words[i:min(i+2, len(words))], ""))
	}
	return out
}

func longDeltas(n int) []string {
	d := make([]string, n)
	for i := range d {
		switch {
		case i%50 == 0:
			d[i] = fmt.Sprintf("\n\n## Part %d\n\n", i/50+1)
		case i%10 == 0:
			d[i] = fmt.Sprintf("word%d.\n\n", i)
		default:
			d[i] = fmt.Sprintf("word%d ", i)
		}
	}
	return d
}

// hugeDelta is exactly n bytes of lines whose numbers show where a reader
// lost or duplicated data.
func hugeDelta(n int) string {
	var b strings.Builder
	b.Grow(n + 64)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "huge line %08d ......................................................\n", i)
	}
	return b.String()[:n]
}

// splitRunes cuts s into about n pieces on rune boundaries.
func splitRunes(s string, n int) []string {
	count := utf8.RuneCountInString(s)
	if count < n {
		return []string{s}
	}
	var out []string
	start, seen := 0, 0
	for i := range s {
		if seen > 0 && seen%((count+n-1)/n) == 0 {
			out = append(out, s[start:i])
			start = i
		}
		seen++
	}
	return append(out, s[start:])
}
