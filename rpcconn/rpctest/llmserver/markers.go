package llmserver

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Markers are written into a prompt to choose the scripted reply. They may be
// combined; unknown markers are ignored.
//
//	(none)          a short markdown reply
//	[[markdown]]    heading, paragraph, ```go block, table and list in many small deltas
//	[[think]]       reasoning_content deltas first, then the text
//	[[bash:CMD]]    a streamed tool call to "bash" with {"command": CMD}
//	[[tool:NAME:JSON]]  a streamed tool call to NAME with the arguments JSON, as
//	                written (it must be an object and must not hold "]]"); the
//	                JSON is checked when the reply is planned, a bad one is
//	                answered with an HTTP 400
//	[[long:N]]      N text deltas forming a long markdown document
//	[[slow:MS]]     MS milliseconds between deltas
//	[[error:CODE]]  HTTP CODE with an OpenAI-style JSON error body
//	[[length]]      the reply ends with finish_reason "length" (the output limit)
//
// When the last message is a tool result the reply quotes it instead
// ("Tool output was: ..."), so a [[bash:...]] prompt completes in two turns.
const Markers = "[[markdown]] [[think]] [[bash:CMD]] [[tool:NAME:JSON]] [[long:N]] [[slow:MS]] [[error:CODE]] [[length]]"

// A command may itself contain "]", so the argument runs to the first "]]".
var markerPattern = regexp.MustCompile(`\[\[([a-z]+)(?::(.*?))?\]\]`)

// markers holds what the last user message asked for.
type markers struct {
	markdown bool
	think    bool
	bash     string
	hasBash  bool
	// tool and toolArgs are a [[tool:NAME:JSON]] call.
	tool, toolArgs string
	long           int
	slow           time.Duration
	status         int
	length         bool
}

func parseMarkers(text string) markers {
	var m markers
	for _, match := range markerPattern.FindAllStringSubmatch(text, -1) {
		name, arg := match[1], match[2]
		switch name {
		case "markdown":
			m.markdown = true
		case "think":
			m.think = true
		case "bash":
			m.bash, m.hasBash = arg, true
		case "tool":
			m.tool, m.toolArgs, _ = strings.Cut(arg, ":")
		case "long":
			m.long = atoiClamp(arg, 1, 100000)
		case "slow":
			m.slow = time.Duration(atoiClamp(arg, 0, 600000)) * time.Millisecond
		case "error":
			m.status = atoiClamp(arg, 400, 599)
		case "length":
			m.length = true
		}
	}
	return m
}

// atoiClamp keeps a typo in a prompt from asking for an absurd reply.
func atoiClamp(s string, lo, hi int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return lo
	}
	return min(max(n, lo), hi)
}
