package app

import (
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/kardianos/osext"

	"knightcode.ai/desktop/agentsetup"
)

// AgentCandidate is where an agent binary was found, and why it was chosen.
type AgentCandidate struct {
	Path   string
	Source string
}

// Where an agent was found, as FindAgent says it.
const (
	sourceFlag      = "--agent"
	sourceSettings  = "settings"
	sourceBundled   = "bundled with the app"
	sourceInstalled = "installed by the app"
)

// lookup finds agents; fields are replaceable in tests.
type lookup struct {
	execFolder func() (string, error)
	lookPath   func(string) (string, error)
	isFile     func(string) bool
	// dataAgent is the launcher of the agent the app installed in its
	// data folder, if any.
	dataAgent func() (string, bool)
}

var systemLookup = lookup{execFolder: osext.ExecutableFolder, lookPath: exec.LookPath, isFile: isExecutableFile,
	dataAgent: agentsetup.InstalledLauncher}

// FindAgent chooses the agent to run: the --agent flag, then the saved
// setting, then one bundled beside our own executable ("knightcode", or the
// agent folder a bundle carries; in Contents/MacOS of a .app), then
// "knightcode" on PATH, then the agent the app installed in its data folder,
// then "pi" on PATH (the agent's public twin, whichever release the user
// has: the app's own install is the release the app was tested with).
func FindAgent(flagPath, savedPath string) (AgentCandidate, bool) {
	return systemLookup.find(flagPath, savedPath)
}

func (l lookup) find(flagPath, savedPath string) (AgentCandidate, bool) {
	if flagPath != "" {
		return AgentCandidate{flagPath, sourceFlag}, true
	}
	if savedPath != "" && l.isFile(savedPath) {
		return AgentCandidate{savedPath, sourceSettings}, true
	}
	if dir, err := l.execFolder(); err == nil {
		for _, beside := range []string{filepath.Join(dir, exeName("knightcode")), agentsetup.LauncherPath(filepath.Join(dir, "agent"))} {
			if l.isFile(beside) {
				return AgentCandidate{beside, sourceBundled}, true
			}
		}
	}
	if p, err := l.lookPath(exeName("knightcode")); err == nil {
		return AgentCandidate{p, "knightcode on PATH"}, true
	}
	if l.dataAgent != nil {
		if p, ok := l.dataAgent(); ok && l.isFile(p) {
			return AgentCandidate{p, sourceInstalled}, true
		}
	}
	if p, err := l.lookPath(exeName("pi")); err == nil {
		return AgentCandidate{p, "pi on PATH"}, true
	}
	return AgentCandidate{}, false
}

func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}
