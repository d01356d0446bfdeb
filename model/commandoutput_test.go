package model

import (
	"reflect"
	"testing"
)

func TestParseMCPStatus(t *testing.T) {
	// As pi 1.6.0 wrote it over RPC, measured.
	text := "echo: connected, 1 tools (codemode)\nbroken: failed (codemode)\n    spawn /nonexistent/server ENOENT\noff: disabled (codemode)\nweb: failed (codemode)\n    fetch failed"
	want := []MCPServer{
		{Name: "echo", State: "connected", Detail: "1 tools (codemode)"},
		{Name: "broken", State: "failed", Detail: "(codemode)", Error: "spawn /nonexistent/server ENOENT"},
		{Name: "off", State: "disabled", Detail: "(codemode)"},
		{Name: "web", State: "failed", Detail: "(codemode)", Error: "fetch failed"},
	}
	if got := ParseMCPStatus(text); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	for _, other := range []string{"No MCP servers are configured.", "  indented first", ""} {
		if got := ParseMCPStatus(other); got != nil {
			t.Errorf("%q parsed as %+v", other, got)
		}
	}
}
