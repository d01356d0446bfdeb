package model

import (
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

// TestCommandsKeepTheirFileFromEitherGeneration: the window shows where a
// command comes from whether the agent says it in path or, older, in
// sourceInfo.
func TestCommandsKeepTheirFileFromEitherGeneration(t *testing.T) {
	got := commands([]rpcconn.Command{
		{Name: "fix", Description: "fix it", Source: "prompt", Path: "/p/fix.md"},
		{Name: "old", Source: "skill", SourceInfo: &rpcconn.CommandSourceInfo{Path: "/s/old.md"}},
	})
	want := []Command{{Name: "fix", Description: "fix it", Source: "prompt", Path: "/p/fix.md"}, {Name: "old", Source: "skill", Path: "/s/old.md"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("commands %+v, want %+v", got, want)
	}
	if commands(nil) != nil || forkMessages(nil) != nil {
		t.Fatal("no commands or forks became an empty list")
	}
	if f := forkMessages([]rpcconn.ForkMessage{{EntryID: "e1", Text: "first"}}); len(f) != 1 || f[0] != (ForkMessage{EntryID: "e1", Text: "first"}) {
		t.Fatalf("fork messages %+v", f)
	}
}
