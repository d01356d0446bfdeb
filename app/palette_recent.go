package app

import (
	"slices"

	"fyne.io/fyne/v2"
)

// maxRecentActions is how many commands the palette remembers as used.
const maxRecentActions = 12

// recentActions are the IDs of the palette's commands last run, most
// recent first, kept across restarts: the palette opens on the last one,
// as editors do.
func recentActions(p fyne.Preferences) []string {
	return p.StringList(prefRecentActions)
}

// noteRecentAction puts id at the head of the recent commands.
func noteRecentAction(p fyne.Preferences, id string) {
	ids := slices.DeleteFunc(recentActions(p), func(x string) bool { return x == id })
	ids = append([]string{id}, ids...)
	if len(ids) > maxRecentActions {
		ids = ids[:maxRecentActions]
	}
	p.SetStringList(prefRecentActions, ids)
}
