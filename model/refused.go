package model

import (
	"slices"
	"strings"
	"unicode"
)

// RefusedCommand reads a notification in which an extension command
// declines to run because the agent is not in its terminal UI, and returns
// the command's name. pi 1.6 lists /llama in get_commands, and over RPC
// the command only notifies "/llama is available in interactive mode"
// (a warning) and succeeds; nothing else on the wire says so. The text
// must start with the command ("/name ") and speak of interactive (or
// TUI) mode, so the text of a command that runs and merely mentions the
// mode (pi's /mcp: "Signing in to MCP server X requires interactive
// mode.") teaches nothing.
func RefusedCommand(text string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/")
	if !ok {
		return "", false
	}
	name, tail, _ := strings.Cut(rest, " ")
	if name == "" || strings.IndexFunc(name, unicode.IsSpace) >= 0 {
		return "", false
	}
	tail = strings.ToLower(tail)
	if !strings.Contains(tail, "interactive mode") && !strings.Contains(tail, "tui mode") {
		return "", false
	}
	return name, true
}

// learnRefused notes the command a notification says does not run here.
func (s *Session) learnRefused(text string) {
	if name, ok := RefusedCommand(text); ok && !slices.Contains(s.refused, name) {
		s.refused = append(s.refused, name)
		slices.Sort(s.refused)
		s.touch()
	}
}
