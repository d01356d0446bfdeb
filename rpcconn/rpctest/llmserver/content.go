package llmserver

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

const shortReply = "Hello! This is a **scripted** reply from the local test model.\n\n" +
	"- It streams in small deltas.\n- It ends with a usage chunk.\n"

const markdownReply = "# Streaming check\n\n" +
	"This reply exercises the **markdown** renderer: *emphasis*, `inline code` " +
	"and a [link](https://example.com/docs) inside one paragraph.\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello, knight\")\n}\n```\n\n" +
	"| Piece | Moves | Value |\n|-------|-------|------:|\n| Knight | L-shape | 3 |\n| Bishop | diagonal | 3 |\n| Rook | straight | 5 |\n\n" +
	"- first item\n- second item with `code`\n- third item, **bold**\n"

const thinkingText = "The user wants an answer, so let me think first. " +
	"I will check what the markers ask for and plan the reply. " +
	"A short answer in markdown should be enough here."

// splitWords cuts s into deltas of n words each, keeping every byte so the
// deltas join back to s exactly, the way a model's tokens do.
func splitWords(s string, n int) []string {
	var out []string
	words, start := 0, 0
	inWord := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if inWord && space {
			words++
			if words == n {
				out = append(out, s[start:i])
				start, words = i, 0
			}
		}
		inWord = !space
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// splitRunes cuts s into pieces of at most n runes, never inside a rune, so
// each piece stays valid UTF-8 in its own JSON string.
func splitRunes(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		i, count := 0, 0
		for i < len(s) && count < n {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			count++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// longDeltas returns exactly n deltas of a few words each that join into a
// long markdown document of sections, paragraphs, code blocks and lists; a
// code block cut off by n is closed so the document stays well formed.
func longDeltas(n int) []string {
	out := make([]string, 0, n+8)
	for section := 1; len(out) < n; section++ {
		out = append(out, fmt.Sprintf("## Part %d\n\n", section))
		out = append(out, splitWords(longParagraph(section), 4)...)
		out = append(out, "\n\n```go\n")
		for line := range 6 {
			out = append(out, fmt.Sprintf("func step%d_%d(x int) int { return x*%d + %d }\n", section, line, section, line))
		}
		out = append(out, "```\n\n")
		out = append(out, splitWords(longList(section), 3)...)
		out = append(out, "\n")
	}
	out = out[:n]
	if strings.Count(strings.Join(out, ""), "```")%2 == 1 {
		out[n-1] += "\n```\n"
	}
	return out
}

func longParagraph(section int) string {
	return fmt.Sprintf("Section %d walks through the design once more. The reader keeps "+
		"every line it gets, the session folds each delta into the message, and the "+
		"view redraws only the last block. Nothing here is real advice; it is filler "+
		"text with *emphasis*, `code spans` and **bold words** to keep a renderer busy.", section)
}

func longList(section int) string {
	return fmt.Sprintf("- item one of part %d\n- item two with `inline code`\n- item three, the last\n", section)
}

// quoteOutput keeps the reply to a tool result short and on one line however
// big the output was.
func quoteOutput(output string) string {
	s := strings.Join(strings.Fields(output), " ")
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	return s
}
