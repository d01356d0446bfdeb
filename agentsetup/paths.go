package agentsetup

import (
	"os"
	"path/filepath"
	"runtime"
)

// appFolder names the app's folder inside the platform's data folder.
const appFolder = "knightcode-desktop"

// DataDir is the app's own data folder: $XDG_DATA_HOME/knightcode-desktop
// (~/.local/share/knightcode-desktop) on Linux and the BSDs,
// ~/Library/Application Support/knightcode-desktop on macOS,
// %LOCALAPPDATA%\knightcode-desktop on Windows. Data, not cache: clearing
// caches must not take the agent away.
func DataDir() (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, appFolder), nil
		}
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, appFolder), nil
	case "darwin":
		d, err := os.UserConfigDir() // ~/Library/Application Support
		if err != nil {
			return "", err
		}
		return filepath.Join(d, appFolder), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, appFolder), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", appFolder), nil
}

// AgentDir is where the app installs its agent: DataDir/agent.
func AgentDir() (string, error) {
	d, err := DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "agent"), nil
}

// LauncherPath is the program the app starts for an agent installed in
// dir: dir/bin/pi (pi.cmd on Windows).
func LauncherPath(dir string) string {
	name := Current.Name
	if runtime.GOOS == "windows" {
		name += ".cmd"
	}
	return filepath.Join(dir, "bin", name)
}

// InstalledLauncher is the launcher of the app's own agent, if one is
// installed.
func InstalledLauncher() (string, bool) {
	dir, err := AgentDir()
	if err != nil {
		return "", false
	}
	p := LauncherPath(dir)
	if info, err := os.Stat(p); err == nil && !info.IsDir() {
		return p, true
	}
	return "", false
}
