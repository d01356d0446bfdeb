package model

import "testing"

// ReplyStreaming is true from the reply's message_start to its
// message_end, and not for the user's message before it, nor once the
// agent is gone mid-reply.
func TestReplyStreamingSpansTheReply(t *testing.T) {
	s := NewSession()
	s.SetConn(ConnReady, "")
	if s.ReplyStreaming() {
		t.Fatal("streaming before any run")
	}
	apply(s, decode(t, runStart[:4]...))
	if s.ReplyStreaming() {
		t.Fatal("streaming after the user's message only")
	}
	apply(s, decode(t, runStart[4], `{"type":"message_update","assistantMessageEvent":{"type":"text_start","contentIndex":0}}`, delta("text_delta", 0, "Hi")))
	if !s.ReplyStreaming() {
		t.Fatal("not streaming while the reply arrives")
	}
	apply(s, decode(t, `{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"Hi"}],"stopReason":"stop"}}`))
	if s.ReplyStreaming() {
		t.Fatal("still streaming after the reply's message_end")
	}
	apply(s, decode(t, runStart[4], `{"type":"message_update","assistantMessageEvent":{"type":"text_start","contentIndex":0}}`))
	if !s.ReplyStreaming() {
		t.Fatal("not streaming while the next reply arrives")
	}
	s.SetConn(ConnExited, "")
	if s.ReplyStreaming() {
		t.Fatal("streaming after the agent exited mid-reply")
	}
}
