package app

import (
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/kardianos/osext"
)

// AgentCandidate is where an agent binary was found, and why it was chosen.
type AgentCandidate struct {
	Path   string
	Source string
}

// lookup finds agents; fields are replaceable in tests.
type lookup struct {
	execFolder func() (string, error)
	lookPath   func(string) (string, error)
	isFile     func(string) bool
}

var systemLookup = lookup{execFolder: osext.ExecutableFolder, lookPath: exec.LookPath, isFile: isExecutableFile}

// FindAgent chooses the agent to run: the --agent flag, then the saved
// setting, then "knightcode" beside our own executable (a bundle can ship
// the agent next to the app, or in Contents/MacOS of a .app), then
// "knightcode" on PATH, then "pi" on PATH (the agent's public twin).
func FindAgent(flagPath, savedPath string) (AgentCandidate, bool) {
	return systemLookup.find(flagPath, savedPath)
}

func (l lookup) find(flagPath, savedPath string) (AgentCandidate, bool) {
	if flagPath != "" {
		return AgentCandidate{flagPath, "--agent"}, true
	}
	if savedPath != "" && l.isFile(savedPath) {
		return AgentCandidate{savedPath, "settings"}, true
	}
	if dir, err := l.execFolder(); err == nil {
		beside := filepath.Join(dir, exeName("knightcode"))
		if l.isFile(beside) {
			return AgentCandidate{beside, "bundled with the app"}, true
		}
	}
	for _, name := range []string{"knightcode", "pi"} {
		if p, err := l.lookPath(exeName(name)); err == nil {
			return AgentCandidate{p, name + " on PATH"}, true
		}
	}
	return AgentCandidate{}, false
}

func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}
