package model

import (
	"strings"
	"unicode"

	"knightcode.ai/desktop/rpcconn"
)

// SystemPromptMarkdown is the agent's system prompt, in the parts it sent
// (pi 1.6: preamble, tools, rules…), as markdown to read: a heading per
// part, its text without the tag that wraps it (<tools>…</tools>), and any
// other angle bracket shown as written rather than taken for HTML.
func SystemPromptMarkdown(sections rpcconn.Sections) string {
	var b strings.Builder
	for _, sec := range sections {
		text := strings.TrimSpace(sec.Text)
		if text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("## " + sectionTitle(sec.Name) + "\n\n")
		text = unwrapTag(text)
		b.WriteString(strings.ReplaceAll(text, "<", "&lt;"))
	}
	return b.String()
}

// sectionTitle makes "preamble" or "project_context" a heading.
func sectionTitle(name string) string {
	name = strings.NewReplacer("_", " ", "-", " ").Replace(name)
	r := []rune(name)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// unwrapTag takes off one tag around the whole text: "<tools>\n…\n</tools>".
func unwrapTag(text string) string {
	if !strings.HasPrefix(text, "<") {
		return text
	}
	end := strings.IndexByte(text, '>')
	if end < 0 {
		return text
	}
	name := text[1:end]
	if name == "" || strings.ContainsAny(name, " /") {
		return text
	}
	closing := "</" + name + ">"
	if !strings.HasSuffix(text, closing) {
		return text
	}
	return strings.TrimSpace(text[end+1 : len(text)-len(closing)])
}
