package model

import (
	"strings"
	"time"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

// previewMessages is how many of a session's last messages the browser
// shows before it is opened.
const previewMessages = 6

// PreviewTail is what Preview needs of a session file's end, for
// sessionfiles.ReadTranscriptTail: the last prompts and replies that show.
func PreviewTail() sessionfiles.Tail {
	return sessionfiles.Tail{
		Messages: previewMessages,
		Roles:    []string{rpcconn.RoleUser, rpcconn.RoleAssistant},
		Counts:   func(m rpcconn.Message) bool { return len(Preview([]rpcconn.Message{m})) > 0 },
	}
}

// Preview is the last prompts and replies of a transcript read from a
// session file, oldest first; tool results and empty turns are left out.
func Preview(msgs []rpcconn.Message) []PreviewMessage {
	var out []PreviewMessage
	for i := len(msgs) - 1; i >= 0 && len(out) < previewMessages; i-- {
		m := msgs[i]
		var who string
		switch m.Role {
		case rpcconn.RoleUser:
			who = "You"
		case rpcconn.RoleAssistant:
			who = m.Model
			if who == "" {
				who = "Agent"
			}
		default:
			continue
		}
		text := strings.TrimSpace(m.Content.Text())
		if m.Role == rpcconn.RoleAssistant {
			text = strings.TrimSpace(Glance(text))
		}
		if text == "" {
			continue
		}
		var when time.Time
		if m.Timestamp > 0 {
			when = time.UnixMilli(m.Timestamp)
		}
		out = append(out, PreviewMessage{Who: who, Text: text, When: when})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Glance drops the markdown marks that would show as noise in a plain
// preview — heading hashes, quote marks, emphasis, code ticks — keeping the
// words and the lines; the transcript renders the rest when opened.
func Glance(md string) string {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, "```"):
			l = ""
		case strings.HasPrefix(t, "#"):
			l = strings.TrimLeft(strings.TrimLeft(t, "#"), " ")
		case strings.HasPrefix(t, "> "):
			l = t[2:]
		}
		lines[i] = strings.NewReplacer("**", "", "__", "", "`", "").Replace(l)
	}
	return Plain(strings.Join(lines, "\n"))
}
