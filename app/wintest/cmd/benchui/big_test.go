package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"knightcode.ai/desktop/app/wintest"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

func TestReadLineHead(t *testing.T) {
	long := strings.Repeat("x", 100000)
	r := bufio.NewReaderSize(strings.NewReader(`{"id":"7","type":"response"}`+"\n"+long+"\nlast"), 16)
	for _, want := range []string{`{"id":"7","t`, "xxxxxxxxxxxx", "last"} {
		head, err := readLineHead(r, 12)
		if string(head) != want || (want != "last" && err != nil) {
			t.Errorf("head %q, %v; want %q", head, err, want)
		}
	}
}

// The agent alone answers the app's commands, each after the one before.
func TestAgentAlone(t *testing.T) {
	t.Setenv(rpctest.EnvChild, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []wintest.Record
	for i, typ := range []string{"get_state", "get_available_thinking_levels", "get_available_models", "get_messages"} {
		id := string(rune('1' + i))
		cmds = append(cmds, wintest.Record{ID: id, Type: typ, Raw: `{"id":"` + id + `","type":"` + typ + `"}`})
	}
	d, err := agentAlone([]string{exe, "--mode", "rpc", "--no-session"}, t.TempDir()+"/home", cmds)
	// How long the agent took is for the benchmark to report, not a test
	// to judge: a busy machine makes any bound wrong.
	if err != nil || d <= 0 {
		t.Errorf("agentAlone = %v, %v", d, err)
	}
}
