package app

import (
	"strings"

	"fyne.io/fyne/v2"
)

// Preference keys.
const (
	prefAgentPath = "agent.path"
	prefAgentArgs = "agent.args"
	prefWorkDir   = "agent.workdir"
	prefTheme     = "ui.theme"
	prefTextSize  = "ui.textsize"
	prefBlink     = "ui.cursorblink"
	// prefCheckpointDays: checkpoints of sessions not open are pruned
	// after this many days without a new one; 0 keeps them.
	prefCheckpointDays = "checkpoints.days"
	prefWorktreeDir    = "worktrees.dir"
	// prefRecentActions are the palette's commands last run, most recent
	// first (palette_recent.go).
	prefRecentActions = "palette.recent"
)

// Theme choices.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Settings are the user's saved choices, kept in Fyne preferences.
type Settings struct {
	AgentPath string
	// AgentArgs are extra agent arguments, one per line in the dialog.
	AgentArgs []string
	WorkDir   string
	Theme     string
	// TextScale multiplies the theme's text sizes (1 = normal).
	TextScale float64
	// BlinkCursor lets the editor's cursor blink (until 10 s without
	// input); off, it is always solid.
	BlinkCursor bool
	// CheckpointDays is how long the checkpoints of a closed session are
	// kept after its last one (0: for ever).
	CheckpointDays int
	// WorktreeDir is where "New tab in a worktree…" puts worktrees; empty:
	// beside the repository.
	WorktreeDir string
}

// checkpointDayChoices are the Settings dialog's choices for CheckpointDays.
var checkpointDayChoices = []named[int]{{"1 day", 1}, {"1 week", 7}, {"30 days", 30}, {"90 days", 90}, {"Keep them", 0}}

// LoadSettings reads the settings.
func LoadSettings(p fyne.Preferences) Settings {
	return Settings{
		AgentPath:   p.String(prefAgentPath),
		AgentArgs:   splitArgs(p.String(prefAgentArgs)),
		WorkDir:     p.String(prefWorkDir),
		Theme:       p.StringWithFallback(prefTheme, ThemeSystem),
		TextScale:   p.FloatWithFallback(prefTextSize, 1),
		BlinkCursor: p.BoolWithFallback(prefBlink, true),

		CheckpointDays: p.IntWithFallback(prefCheckpointDays, 30),
		WorktreeDir:    p.String(prefWorktreeDir),
	}
}

// Save writes the settings.
func (s Settings) Save(p fyne.Preferences) {
	p.SetString(prefAgentPath, s.AgentPath)
	p.SetString(prefAgentArgs, strings.Join(s.AgentArgs, "\n"))
	p.SetString(prefWorkDir, s.WorkDir)
	p.SetString(prefTheme, s.Theme)
	p.SetFloat(prefTextSize, s.TextScale)
	p.SetBool(prefBlink, s.BlinkCursor)
	p.SetInt(prefCheckpointDays, s.CheckpointDays)
	p.SetString(prefWorktreeDir, s.WorktreeDir)
}

// splitArgs reads one argument per line, so arguments may hold spaces
// without any shell quoting rules.
func splitArgs(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}
