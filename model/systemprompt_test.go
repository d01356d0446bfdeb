package model

import (
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

func TestSystemPromptMarkdown(t *testing.T) {
	got := SystemPromptMarkdown(rpcconn.Sections{
		{Name: "preamble", Text: "You are a coding assistant."},
		{Name: "tools", Text: "<tools>\n- read: Read file contents\n- bash: Execute <cmd>\n</tools>"},
		{Name: "empty", Text: "  "},
		{Name: "project_context", Text: "<ctx a=1>keep</ctx>"},
	})
	want := "## Preamble\n\nYou are a coding assistant.\n\n## Tools\n\n- read: Read file contents\n- bash: Execute &lt;cmd>\n\n## Project context\n\n&lt;ctx a=1>keep&lt;/ctx>"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if SystemPromptMarkdown(nil) != "" {
		t.Error("no sections, some markdown")
	}
}
