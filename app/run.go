package app

import (
	"os"

	fyneapp "fyne.io/fyne/v2/app"

	"knightcode.ai/desktop/assets"
	"knightcode.ai/desktop/internal/trace"
)

// AppID is the application's identity for preferences and the desktop.
const AppID = "ai.knightcode.desktop"

// Run parses the command line, opens the window and returns when the window
// has closed and the agent has stopped; the result is the exit status.
func Run(args []string) int {
	flags, status, ok := parseCommandLine(args, os.Stdout, os.Stderr)
	if !ok {
		return status
	}
	a := fyneapp.NewWithID(AppID)
	if flags.InstallAgent {
		return installAgentCommand(flags, LoadSettings(a.Preferences()).AgentPath, os.Stderr)
	}
	adoptAgentOrphans()
	a.SetIcon(assets.Icon)
	a.Settings().SetTheme(newAppTheme(LoadSettings(a.Preferences())))
	w := NewWindow(a, flags)
	w.Window().SetIcon(assets.Icon)

	defer func() {
		if r := recover(); r != nil {
			w.shutdownAfterPanic(r)
			panic(r)
		}
	}()
	w.exitOnHang, w.loopReturned = true, make(chan struct{})
	stopSignals := onSignals(w)
	stopProfiles := trace.StartProfiles()
	defer stopProfiles()
	trace.Mark("show")
	defer w.trim.cancel()
	w.ShowAndRun()
	trace.Mark("run-returned")
	close(w.loopReturned)
	stopSignals()
	if !shutdownWithin(shutdownBound, w.finish) {
		return 1
	}
	return 0
}
