package rpctest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// options is what the fake takes from its command line: its own --fake-*
// flags (see the package documentation) and the few agent flags it honours.
type options struct {
	ModelSet         string
	IgnoreStdinClose bool
	IgnoreSIGTERM    bool
	ExitAtOnce       int // -1: do not
	// ExitOnUSR1 is the code the fake exits with when it gets SIGUSR1
	// (-1: it does not): an agent ending by itself at a moment a test
	// chooses, mid-stream if a run streams.
	ExitOnUSR1   int
	NotProtocol  string
	GarbageFirst bool
	Older        bool
	Delay        time.Duration
	StartupDelay time.Duration
	StderrLines  int
	Log          string
	CancelSwitch bool
	// ParseError names a command the fake answers as if the line did not
	// parse: an id-less "parse" response.
	ParseError string
	// SystemPrompt sends pi 1.6's system message (role system, sections)
	// at a session's first turn and keeps it at the head of the messages.
	SystemPrompt bool
	// StopReadingAt stops reading stdin at the first command of that
	// type, alive and silent; with StopReadingOnce only the run that
	// creates that file does.
	StopReadingAt   string
	StopReadingOnce string
	// ThinkingCap is the highest level the fake's models take, whatever
	// they list: set_thinking_level above it gets the cap (a model that
	// answers another level than the one chosen).
	ThinkingCap string
	// RetryDelay is the wait before the first automatic retry (0: 50 ms);
	// each further one waits twice as long.
	RetryDelay time.Duration
	// TUICommand is an extension command listed by get_commands that
	// refuses to run over RPC, as pi 1.6's /llama does.
	TUICommand string
	// MessagesDelay and MessagesGate hold get_messages back: for that
	// long, and until the gate file exists. A window that paints a
	// session from its file before the agent answers is tested with them.
	MessagesDelay time.Duration
	MessagesGate  string

	// Agent flags.
	Model       string
	Thinking    string
	Name        string
	SessionDir  string
	SessionFile string
	NoSession   bool
}

// parseOptions reads args leniently, as an agent's wrapper may pass anything:
// unknown agent flags are ignored, but an unknown --fake-* flag is an error so
// a typo in a test does not silently test nothing.
func parseOptions(args []string) (options, error) {
	o := options{ExitAtOnce: -1, ExitOnUSR1: -1}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		next := func() string {
			if hasValue {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		var err error
		switch name {
		case "--fake-model-set":
			o.ModelSet = next()
			_, err = modelSets(o.ModelSet)
		case "--fake-ignore-stdin-close":
			o.IgnoreStdinClose = true
		case "--fake-ignore-sigterm":
			o.IgnoreSIGTERM = true
		case "--fake-exit-at-once":
			o.ExitAtOnce, err = strconv.Atoi(next())
		case "--fake-exit-on-usr1":
			o.ExitOnUSR1, err = strconv.Atoi(next())
		case "--fake-not-protocol":
			// The value is optional, so it must be attached with "=".
			o.NotProtocol = "exit"
			if hasValue {
				o.NotProtocol = value
			}
			if o.NotProtocol != "exit" && o.NotProtocol != "wait" && o.NotProtocol != "continue" {
				err = fmt.Errorf("want exit, wait or continue")
			}
		case "--fake-garbage-first":
			o.GarbageFirst = true
		case "--fake-older":
			o.Older = true
		case "--fake-delay":
			o.Delay, err = time.ParseDuration(next())
		case "--fake-startup-delay":
			o.StartupDelay, err = time.ParseDuration(next())
		case "--fake-stderr-lines":
			o.StderrLines, err = strconv.Atoi(next())
		case "--fake-log":
			o.Log = next()
		case "--fake-cancel-switch":
			o.CancelSwitch = true
		case "--fake-parse-error":
			o.ParseError = next()
		case "--fake-thinking-cap":
			o.ThinkingCap = next()
			if !slices.Contains(allLevels, o.ThinkingCap) {
				err = fmt.Errorf("unknown thinking level %q", o.ThinkingCap)
			}
		case "--fake-system-prompt":
			o.SystemPrompt = true
		case "--fake-stop-reading-at":
			o.StopReadingAt = next()
		case "--fake-stop-reading-once":
			o.StopReadingOnce = next()
		case "--fake-retry-delay":
			o.RetryDelay, err = time.ParseDuration(next())
		case "--fake-tui-command":
			o.TUICommand = next()
		case "--fake-messages-delay":
			o.MessagesDelay, err = time.ParseDuration(next())
		case "--fake-messages-gate":
			o.MessagesGate = next()
		case "--model":
			o.Model = next()
		case "--thinking":
			o.Thinking = next()
		case "--name", "-n":
			o.Name = next()
		case "--session-dir":
			o.SessionDir = next()
		case "--session":
			o.SessionFile = next()
		case "--no-session":
			o.NoSession = true
		default:
			if strings.HasPrefix(name, "--fake-") {
				err = fmt.Errorf("unknown option")
			}
		}
		if err != nil {
			return o, fmt.Errorf("%s: %v", name, err)
		}
	}
	return o, nil
}

// envArgs splits KNIGHTCODE_FAKE_ARGS: a JSON array of strings, or
// whitespace-separated words for hand-typed use.
func envArgs(v string) ([]string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	if strings.HasPrefix(v, "[") {
		var args []string
		if err := json.Unmarshal([]byte(v), &args); err != nil {
			return nil, fmt.Errorf("%s: %v", EnvArgs, err)
		}
		return args, nil
	}
	return strings.Fields(v), nil
}
