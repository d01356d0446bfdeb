package model

import (
	"strconv"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

func TestPreviewKeepsTheLastPromptsAndReplies(t *testing.T) {
	var msgs []rpcconn.Message
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 5; i++ {
		msgs = append(msgs,
			rpcconn.Message{Role: rpcconn.RoleUser, Content: text("question " + strconv.Itoa(i)), Timestamp: at.UnixMilli()},
			rpcconn.Message{Role: rpcconn.RoleToolResult, Content: text("tool output")},
			rpcconn.Message{Role: rpcconn.RoleAssistant, Model: "qwen", Content: text("## Answer\n\n**bold** " + strconv.Itoa(i))})
	}
	msgs = append(msgs, rpcconn.Message{Role: rpcconn.RoleAssistant, Content: text("   ")})
	got := Preview(msgs)
	if len(got) != previewMessages {
		t.Fatalf("%d messages: %+v", len(got), got)
	}
	first, last := got[0], got[len(got)-1]
	if first.Who != "You" || first.Text != "question 2" || !first.When.Equal(at) {
		t.Errorf("first shown %+v, want the prompt three turns back", first)
	}
	if last.Who != "qwen" || last.Text != "Answer\n\nbold 4" {
		t.Errorf("last shown %+v, want the last reply as plain text", last)
	}
}

func text(s string) rpcconn.Content {
	return rpcconn.Content{{Type: rpcconn.ContentText, Text: s}}
}
