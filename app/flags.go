package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Flags are the command line: knightcode-desktop [--agent PATH] [--cwd DIR] [-- AGENT ARGS…]
type Flags struct {
	Agent     string
	Dir       string
	AgentArgs []string
}

// ParseFlags reads the command line. Everything after "--" goes to the agent.
func ParseFlags(args []string, stderr io.Writer) (Flags, error) {
	var f Flags
	fs := flag.NewFlagSet("knightcode-desktop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.Agent, "agent", "", "the agent `binary` (default: saved setting, then knightcode beside the app, on PATH, then pi)")
	fs.StringVar(&f.Dir, "cwd", "", "the agent's working `folder` (default: saved setting, else the current folder)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: knightcode-desktop [--agent PATH] [--cwd DIR] [-- AGENT ARGS…]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	rest := fs.Args()
	if len(rest) > 0 {
		// flag stops at "--" and drops it; anything else left over is a
		// mistake rather than agent arguments.
		if len(args) < len(rest)+1 || args[len(args)-len(rest)-1] != "--" {
			fs.Usage()
			return f, errors.New("unexpected arguments: put agent arguments after --")
		}
		f.AgentArgs = rest
	}
	return f, nil
}
