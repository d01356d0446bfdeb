package model

import (
	"slices"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

func TestRefusedCommandReadsTheAgentsAnswer(t *testing.T) {
	for _, c := range []struct {
		text, name string
		ok         bool
	}{
		{"/llama is available in interactive mode", "llama", true}, // pi 1.6, word for word
		{"/ui-thing only works in TUI mode.", "ui-thing", true},
		{`Signing in to MCP server "x" requires interactive mode.`, "", false}, // /mcp ran
		{"/llama: 3 models loaded", "", false},
		{"interactive mode /llama", "", false},
		{"/ is available in interactive mode", "", false},
	} {
		name, ok := RefusedCommand(c.text)
		if name != c.name || ok != c.ok {
			t.Errorf("RefusedCommand(%q) = %q, %v; want %q, %v", c.text, name, ok, c.name, c.ok)
		}
	}
}

// The session learns it from the notification the command answers with,
// once, and the notice still reaches the user.
func TestSessionLearnsARefusedCommand(t *testing.T) {
	s := NewSession()
	notify := func(text string) Effects {
		return s.Apply(&rpcconn.ExtensionUIRequest{ID: "n", Method: rpcconn.UINotify, Message: text, NotifyType: "warning"})
	}
	if fx := notify("MCP servers need attention"); len(fx.Notices) != 1 || len(s.View(nil).Refused) != 0 {
		t.Fatalf("an ordinary notice: %d notices, refused %v", len(fx.Notices), s.View(nil).Refused)
	}
	fx := notify("/llama is available in interactive mode")
	notify("/llama is available in interactive mode")
	notify("/aardvark is available in interactive mode")
	if len(fx.Notices) != 1 || fx.Notices[0].Level != NoticeWarning {
		t.Fatalf("the refusal's notice: %+v", fx.Notices)
	}
	v := s.View(nil)
	if !slices.Equal(v.Refused, []string{"aardvark", "llama"}) {
		t.Fatalf("refused %v", v.Refused)
	}
	notify("/zebra is available in interactive mode")
	if !slices.Equal(v.Refused, []string{"aardvark", "llama"}) {
		t.Fatalf("an earlier View changed with the session: %v", v.Refused)
	}
}
