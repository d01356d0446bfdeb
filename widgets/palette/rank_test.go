package palette

import (
	"slices"
	"testing"

	"knightcode.ai/desktop/model"
)

// appPalette is a slice of the app's own actions, as the window lists them.
func appPalette() []model.PaletteItem {
	return []model.PaletteItem{
		{ID: "stop", Title: "Stop", Detail: "Abort the run or the running !command", Keywords: "cancel interrupt", Unavailable: "nothing is running"},
		{ID: "new", Title: "New session", Detail: "Start a fresh conversation"},
		{ID: "remote-tab", Title: "New tab on another machine…", Detail: "An agent on an SSH host"},
		{ID: "export", Title: "Export as HTML…", Detail: "Save the transcript to share"},
		{ID: "settings", Title: "Settings…", Detail: "Agent, working folder, theme, text size, models", Keywords: "preferences options"},
		{ID: "thinking", Title: "Next thinking level"},
	}
}

func rankedIDs(q string, items []model.PaletteItem, recent ...string) []string {
	var out []string
	for _, h := range rankPalette(q, items, rankOptions{details: true, recent: recent}) {
		out = append(out, items[h.item].ID)
	}
	return out
}

// "theme" is a word of Settings' detail; "New tab on another machine"
// only holds its letters scattered.
func TestRankWholeWordBeforeScatteredLetters(t *testing.T) {
	got := rankedIDs("theme", appPalette())
	if len(got) < 2 || got[0] != "settings" || !slices.Contains(got, "remote-tab") {
		t.Fatalf("\"theme\" ranks %v, want settings first and the scattered match after", got)
	}
	// An item's own keyword finds it before scattered letters too.
	if got := rankedIDs("pref", appPalette()); len(got) == 0 || got[0] != "settings" {
		t.Fatalf("\"pref\" ranks %v", got)
	}
	// A title's word start still beats a keyword.
	items := append(appPalette(), model.PaletteItem{ID: "theme", Title: "Dark theme", Detail: ""})
	if got := rankedIDs("theme", items); got[0] != "theme" || got[1] != "settings" {
		t.Fatalf("\"theme\" with a title word ranks %v", got)
	}
}

func TestRankRecentFirstOnEmptyQuery(t *testing.T) {
	got := rankedIDs("", appPalette(), "export", "thinking")
	want := []string{"export", "thinking", "new", "remote-tab", "settings", "stop"}
	if !slices.Equal(got, want) {
		t.Fatalf("empty query with recent export, thinking: %v, want %v", got, want)
	}
	// A recent use breaks a tie between equal matches, not a better match.
	items := []model.PaletteItem{{ID: "a", Title: "Copy a"}, {ID: "b", Title: "Copy b"}, {ID: "c", Title: "Compact"}}
	if got := rankedIDs("copy", items, "b"); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("\"copy\" with recent b: %v", got)
	}
	if got := rankedIDs("com", items, "a"); got[0] != "c" {
		t.Fatalf("\"com\" with recent a: %v", got)
	}
}

// What cannot run now goes after what can and matches as well, even when
// it was used last; a better kind of match still comes first.
func TestRankUnavailableAfterEqualMatches(t *testing.T) {
	if got := rankedIDs("", appPalette(), "stop"); got[len(got)-1] != "stop" || got[0] != "new" {
		t.Fatalf("empty query, Stop unavailable but recent: %v", got)
	}
	items := []model.PaletteItem{
		{ID: "stop", Title: "Stop", Unavailable: "nothing is running"},
		{ID: "start", Title: "Start over"},
		{ID: "system", Title: "System prompt…"},
	}
	if got := rankedIDs("st", items); !slices.Equal(got, []string{"start", "stop", "system"}) {
		t.Fatalf("\"st\": %v", got)
	}
	if got := rankedIDs("stop", items); !slices.Equal(got, []string{"stop", "system"}) {
		t.Fatalf("\"stop\": %v", got)
	}
}
