package rpctest

import (
	"os"
)

const (
	// EnvChild set to "1" makes RunIfChild turn the process into the fake agent.
	EnvChild = "KNIGHTCODE_FAKE_AGENT"
	// EnvArgs carries fake-agent flags (a JSON array of strings, or words
	// separated by spaces) for clients that build the agent's argv themselves.
	// Command-line flags are read after them and win.
	EnvArgs = "KNIGHTCODE_FAKE_ARGS"
)

// RunIfChild runs the fake agent and exits if EnvChild is "1"; otherwise it
// returns at once. Call it first thing in TestMain, before anything parses
// flags, so a test binary can re-execute itself as the agent:
//
//	func TestMain(m *testing.M) {
//		rpctest.RunIfChild()
//		os.Exit(m.Run())
//	}
func RunIfChild() {
	if os.Getenv(EnvChild) != "1" {
		return
	}
	Main()
	os.Exit(0)
}

// Command returns the program to start as the agent (this test binary) and
// the complete environment for it (the current one plus EnvChild, and EnvArgs
// holding extra when given). The caller passes agent arguments such as
// "--mode", "rpc" or "--fake-older" as argv; extra is for flags that must
// reach the fake when the caller does not control argv.
func Command(extra ...string) (path string, env []string) {
	path, err := os.Executable()
	if err != nil {
		path = os.Args[0]
	}
	env = append(os.Environ(), EnvChild+"=1")
	if len(extra) > 0 {
		env = append(env, EnvArgs+"="+string(mustJSON(extra)))
	}
	return path, env
}
