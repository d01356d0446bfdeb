package llmserver

import (
	"encoding/json"
	"fmt"
	"time"
)

// reply is the whole scripted answer, decided before the first byte is sent.
type reply struct {
	name      string
	status    int // non-zero: answer with this HTTP error instead
	delay     time.Duration
	reasoning []string
	text      []string
	tool      *toolReply
	// cutOff ends the reply at the output limit (finish_reason "length").
	cutOff bool
}

type toolReply struct {
	id, name string
	args     []string // fragments of the arguments JSON
}

func (r reply) finishReason() string {
	if r.cutOff {
		return "length"
	}
	if r.tool != nil {
		return "tool_calls"
	}
	return "stop"
}

// deltaCount stands in for completion tokens in the usage chunk.
func (r reply) deltaCount() int {
	n := len(r.reasoning) + len(r.text)
	if r.tool != nil {
		n += len(r.tool.args)
	}
	return n
}

// planReply picks the script. A tool result wins over the markers of the
// user message before it; otherwise [[bash:...]] would call the tool again
// forever.
func planReply(req Request, callID string) reply {
	m := parseMarkers(req.LastUserText())
	r := reply{delay: m.slow}
	if m.status != 0 {
		r.name, r.status = "error", m.status
		return r
	}
	if last := req.LastMessage(); last.Role == "tool" {
		r.name = "tool-result"
		r.text = splitWords("Tool output was: "+quoteOutput(last.Text), 3)
		return r
	}
	if m.think {
		r.reasoning = splitWords(thinkingText, 3)
	}
	switch {
	case m.tool != "":
		if !json.Valid([]byte(m.toolArgs)) {
			r.name, r.status = "error", 400
			return r
		}
		r.name = "tool"
		r.tool = &toolReply{id: callID, name: m.tool, args: splitRunes(m.toolArgs, 8)}
	case m.hasBash:
		r.name = "bash"
		r.tool = &toolReply{id: callID, name: "bash", args: splitRunes(commandJSON(m.bash), 8)}
	case m.long > 0:
		r.name = "long"
		r.text = longDeltas(m.long)
	case m.markdown:
		r.name = "markdown"
		r.text = splitWords(markdownReply, 1)
	default:
		r.name = "default"
		r.text = splitWords(shortReply, 3)
	}
	if m.think && r.name == "default" {
		r.name = "think"
	}
	r.cutOff = m.length
	return r
}

// commandJSON keeps <, > and & as they are: the agent shows the arguments
// as they stream, and a command full of \u003e would look broken.
func commandJSON(command string) string {
	b, err := marshal(map[string]string{"command": command})
	if err != nil {
		panic(fmt.Sprintf("llmserver: encoding a string cannot fail: %v", err))
	}
	return string(b)
}
