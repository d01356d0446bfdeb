package sessionfiles

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// agentHomes are the agents whose sessions the browser shows: KnightCode and
// its public twin pi. pi derives its variables from its name
// (<NAME>_CODING_AGENT_DIR, <NAME>_CODING_AGENT_SESSION_DIR), and so does a
// rebranded build.
var agentHomes = []struct{ envPrefix, dotDir string }{
	{"KNIGHTCODE", ".knightcode"},
	{"PI", ".pi"},
}

// SessionRoots returns the folders that hold the agent's sessions, where
// ListSessions looks. The agent's own --session-dir wins, as it does for the
// agent; otherwise each agent's folder is chosen as it chooses it:
// $<NAME>_CODING_AGENT_SESSION_DIR, then "sessionDir" in its settings.json,
// then sessions/ in its agent folder ($<NAME>_CODING_AGENT_DIR or
// ~/.<name>/agent). A project's own .pi/settings.json is not read.
func Roots(agentArgs []string, home string) []string {
	return sessionRoots(agentArgs, home, os.Getenv)
}

func sessionRoots(agentArgs []string, home string, getenv func(string) string) []string {
	if dir, ok := SessionDirArg(agentArgs); ok {
		// pi takes the argument as given (the shell has expanded any ~).
		return []string{dir}
	}
	var roots []string
	for _, a := range agentHomes {
		if dir := getenv(a.envPrefix + "_CODING_AGENT_SESSION_DIR"); dir != "" {
			roots = appendNewPath(roots, expandHomeTilde(dir, home))
			continue
		}
		agentDir := filepath.Join(home, a.dotDir, "agent")
		if dir := getenv(a.envPrefix + "_CODING_AGENT_DIR"); dir != "" {
			agentDir = expandHomeTilde(dir, home)
		}
		if dir := settingsSessionDir(agentDir, home); dir != "" {
			roots = appendNewPath(roots, dir)
			continue
		}
		roots = appendNewPath(roots, filepath.Join(agentDir, "sessions"))
	}
	return roots
}

// SessionDirArg finds --session-dir DIR or --session-dir=DIR; the last one
// counts, as in pi's argument parser (which has no "--" terminator).
func SessionDirArg(args []string) (string, bool) {
	dir, found := "", false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--session-dir" && i+1 < len(args):
			i++
			dir, found = args[i], true
		case strings.HasPrefix(a, "--session-dir="):
			dir, found = strings.TrimPrefix(a, "--session-dir="), true
		}
	}
	return dir, found && dir != ""
}

// settingsSessionDir reads "sessionDir" from the agent folder's
// settings.json. A relative value stays relative: pi takes it from its
// working folder, and so does ListSessions.
func settingsSessionDir(agentDir, home string) string {
	data, err := os.ReadFile(filepath.Join(agentDir, "settings.json"))
	if err != nil {
		return ""
	}
	var s struct {
		SessionDir string `json:"sessionDir"`
	}
	if json.Unmarshal(data, &s) != nil {
		return ""
	}
	return expandHomeTilde(s.SessionDir, home)
}

// expandHomeTilde expands "~" and "~/" the way pi does for its variables and
// settings (not "~user").
func expandHomeTilde(path, home string) string {
	switch {
	case path == "~":
		return home
	case strings.HasPrefix(path, "~/"), strings.HasPrefix(path, `~\`):
		return filepath.Join(home, path[2:])
	}
	return path
}

func appendNewPath(list []string, s string) []string {
	for _, x := range list {
		if filepath.Clean(x) == filepath.Clean(s) {
			return list
		}
	}
	return append(list, s)
}
