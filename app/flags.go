package app

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"knightcode.ai/desktop/remote"
)

// Flags are the command line: knightcode-desktop [--ssh [USER@]HOST[:PORT]
// [--ssh-config FILE]] [--agent PATH] [--cwd DIR] [-- AGENT ARGS…]
type Flags struct {
	Agent string
	// Dir is the first tab's folder; Dirs all of them, one tab each, when
	// --cwd was given more than once.
	Dir       string
	Dirs      []string
	AgentArgs []string
	// SSH is the host the agent runs on, empty for this computer;
	// SSHConfig an ssh client config to use instead of ~/.ssh/config.
	SSH       string
	SSHConfig string
	// InstallAgent installs the agent when none is found, and exits.
	InstallAgent bool
}

const usageLine = "usage: knightcode-desktop [--ssh [USER@]HOST[:PORT] [--ssh-config FILE]] [--agent PATH] [--cwd DIR] [-- AGENT ARGS…]"

// ParseFlags reads the command line. Everything after "--" goes to the
// agent. -h and --help give flag.ErrHelp with the usage written to stdout;
// any other mistake is an error with the usage written to stderr, once.
func ParseFlags(args []string, stdout, stderr io.Writer) (Flags, error) {
	var f Flags
	fs := flag.NewFlagSet("knightcode-desktop", flag.ContinueOnError)
	// The flag package prints its own message and usage on a mistake, and
	// the usage for -h: both are written here instead, so help goes to
	// stdout and an error is said once.
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.Agent, "agent", "", "")
	fs.Func("cwd", "", func(dir string) error {
		f.Dirs = append(f.Dirs, dir)
		return nil
	})
	fs.StringVar(&f.SSH, "ssh", "", "")
	fs.StringVar(&f.SSHConfig, "ssh-config", "", "")
	fs.BoolVar(&f.InstallAgent, "install-agent", false, "")
	usage := func(w io.Writer) {
		fmt.Fprint(w, usageLine+`

A desktop window for the KnightCode coding agent. It starts the agent itself,
as AGENT --mode rpc [AGENT ARGS…], and talks to it over its stdin and stdout.

Options:
  --agent PATH   the agent's executable (default: the one chosen in Settings,
                 else knightcode beside this app, knightcode on PATH, pi on PATH)
  --cwd DIR      the agent's working folder (default: the one chosen in
                 Settings, else the current folder); given more than once,
                 a tab for each
  --ssh [USER@]HOST[:PORT]
                 run the agent on that host over ssh (your keys, ssh-agent
                 and ~/.ssh/config; nothing is installed there): --cwd is then
                 the folder on the host (default: your home there) and
                 --agent the program there (default: knightcode, else pi, on
                 a login shell's PATH)
  --ssh-config FILE
                 the ssh client config to use (ssh -F FILE)
  --install-agent
                 when no agent is found, install the current public agent
                 (pi, with a Node new enough for it) into the app's data
                 folder with npm, then exit; ./scripts/run.sh runs it
  -h, --help     show this help and exit
  --             everything after it goes to the agent, e.g.
                 -- --provider local --model qwen
`)
	}
	fail := func(err error) (Flags, error) {
		fmt.Fprintln(stderr, "knightcode-desktop:", err)
		usage(stderr)
		return f, err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return f, err
		}
		return fail(err)
	}
	if len(f.Dirs) > 0 {
		f.Dir = f.Dirs[0]
	}
	rest := fs.Args()
	if len(rest) > 0 {
		// flag stops at "--" and drops it; anything else left over is a
		// mistake rather than agent arguments.
		if len(args) < len(rest)+1 || args[len(args)-len(rest)-1] != "--" {
			return fail(fmt.Errorf("unexpected argument %q: put agent arguments after --", rest[0]))
		}
		f.AgentArgs = rest
	}
	if f.SSH != "" {
		if _, err := remote.ParseTarget(f.SSH); err != nil {
			return fail(fmt.Errorf("--ssh: %w", err))
		}
	} else if f.SSHConfig != "" {
		return fail(errors.New("--ssh-config needs --ssh"))
	}
	return f, nil
}

// folders are the tabs' folders: one tab, in the default folder, for no
// --cwd.
func (f Flags) folders() []string {
	if len(f.Dirs) > 1 {
		return f.Dirs
	}
	return []string{f.Dir}
}

// parseCommandLine is ParseFlags with the exit status: ok is false when the
// program must exit with status at once (0 after -h, 2 after a mistake).
func parseCommandLine(args []string, stdout, stderr io.Writer) (f Flags, status int, ok bool) {
	f, err := ParseFlags(args, stdout, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return f, 0, false
	case err != nil:
		return f, 2, false
	}
	return f, 0, true
}
