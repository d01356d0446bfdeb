package app

import (
	"os"
	"path/filepath"
	"strings"
)

// startInfo is what the agent is started with and where each value came
// from, so Settings can show the values in effect rather than what an
// empty field would mean.
type startInfo struct {
	// agent is the executable, resolved to an absolute path where that
	// is possible; "" when none was found.
	agent       string
	agentSource string
	// savedAgentUnusable is set when the saved agent could not be used
	// (it is not an executable file) and another was chosen.
	savedAgentUnusable bool
	// dir is the working folder, absolute.
	dir       string
	dirSource string
	// dirMissing is set when that folder does not exist.
	dirMissing bool
	args       []string
	// flagArgs counts the arguments at the end of args that came from
	// the command line (after --).
	flagArgs int
}

// Where a value came from, in the words Settings uses.
const (
	fromFlagAgent  = "--agent on the command line, which overrides this setting"
	fromFlagCwd    = "--cwd on the command line, which overrides this setting"
	fromSetting    = "this setting"
	fromAppStartup = "the folder the app was started in"
)

// resolveStart works out how the agent is started: the agent FindAgent
// chooses, the working folder (--cwd, then the setting, then the app's
// own), and the arguments (the setting's, then those after --).
func resolveStart(flags Flags, s Settings, l lookup, getwd func() (string, error)) startInfo {
	var st startInfo
	if found, ok := l.find(flags.Agent, s.AgentPath); ok {
		st.agent = absExecutable(found.Path, l)
		st.agentSource = agentSourceWords(found.Source)
		st.savedAgentUnusable = s.AgentPath != "" && found.Source != sourceFlag && found.Source != sourceSettings
	}
	switch {
	case flags.Dir != "":
		st.dir, st.dirSource = flags.Dir, fromFlagCwd
	case s.WorkDir != "":
		st.dir, st.dirSource = s.WorkDir, fromSetting
	default:
		st.dirSource = fromAppStartup
		if wd, err := getwd(); err == nil {
			st.dir = wd
		}
	}
	if st.dir != "" {
		if abs, err := filepath.Abs(st.dir); err == nil {
			st.dir = abs
		}
		if info, err := os.Stat(st.dir); err != nil || !info.IsDir() {
			st.dirMissing = true
		}
	}
	st.args = append(append([]string(nil), s.AgentArgs...), flags.AgentArgs...)
	st.flagArgs = len(flags.AgentArgs)
	return st
}

// absExecutable is path as the agent's process will be started with it:
// a bare name is looked up on PATH, a relative path made absolute.
func absExecutable(path string, l lookup) string {
	if !strings.ContainsRune(path, filepath.Separator) && !strings.ContainsRune(path, '/') {
		if l.lookPath != nil {
			if p, err := l.lookPath(path); err == nil {
				path = p
			}
		}
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// agentSourceWords says how FindAgent found the agent.
func agentSourceWords(source string) string {
	switch source {
	case sourceFlag:
		return fromFlagAgent
	case sourceSettings:
		return fromSetting
	case sourceBundled:
		return "found beside this app"
	case sourceInstalled:
		return "installed by this app in its data folder"
	case "knightcode on PATH":
		return "found on PATH as knightcode"
	case "pi on PATH":
		return "found on PATH as pi, KnightCode's public twin"
	}
	return source
}

// agentInUse is the Settings line under the agent field.
func (st startInfo) agentInUse() string {
	if st.agent == "" {
		return "In use: none — no agent was found in this setting, beside the app, on PATH (knightcode, pi) or in the app's data folder."
	}
	line := "In use: " + st.agent + " — " + st.agentSource + "."
	if st.savedAgentUnusable {
		line += " The agent set here is not an executable file."
	}
	return line
}

// dirInUse is the Settings line under the working folder field.
func (st startInfo) dirInUse() string {
	if st.dir == "" {
		return "In use: the folder the app was started in (it could not be read)."
	}
	line := "In use: " + st.dir + " — " + st.dirSource + "."
	if st.dirMissing {
		line += " This folder does not exist: the agent cannot start there."
	}
	return line
}

// argsInUse is the Settings line under the arguments field.
func (st startInfo) argsInUse() string {
	if len(st.args) == 0 {
		return "In use: no extra arguments (the agent runs with --mode rpc only)."
	}
	line := "In use: " + quoteArgs(st.args)
	switch n := st.flagArgs; {
	case n == len(st.args):
		line += " — from the command line, after --."
	case n > 0:
		line += " — this setting, then " + quoteArgs(st.args[len(st.args)-n:]) + " from the command line."
	default:
		line += " — this setting."
	}
	return line
}

// quoteArgs shows arguments as one line, quoting those with spaces.
func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = `"` + strings.ReplaceAll(a, `"`, `\"`) + `"`
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
