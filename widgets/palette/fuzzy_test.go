package palette

import (
	"slices"
	"testing"
)

func TestFuzzyScoreMatches(t *testing.T) {
	for _, c := range []struct {
		query, text string
		ok          bool
	}{
		{"", "anything", true},
		{"new", "New session", true},
		{"NEW", "new session", true},
		{"ns", "New Session", true},
		{"nwssn", "New session", true},
		{"sn", "New session", true},
		{"xyz", "New session", false},
		{"sessions", "session", false},
		{"nn", "New", false},
		{"é", "Café", true},
	} {
		if _, ok := FuzzyScore(c.query, c.text); ok != c.ok {
			t.Errorf("FuzzyScore(%q, %q) ok = %v, want %v", c.query, c.text, ok, c.ok)
		}
	}
}

// Prefix beats word start beats scattered, whatever the lengths involved.
func TestFuzzyScoreTiers(t *testing.T) {
	score := func(q, text string) int {
		s, ok := FuzzyScore(q, text)
		if !ok {
			t.Fatalf("%q does not match %q", q, text)
		}
		return s
	}
	prefix := score("se", "Session tree with a very long title that goes on and on")
	word := score("se", "New session")
	scattered := score("se", "Close")
	if !(prefix > word && word > scattered) {
		t.Errorf("prefix %d, word start %d, subsequence %d: want descending", prefix, word, scattered)
	}
	// Within a tier: shorter text, one run rather than initials, tighter
	// and earlier matches first.
	if a, b := score("co", "Copy"), score("co", "Compact context"); a <= b {
		t.Errorf("shorter prefix match %d should beat longer %d", a, b)
	}
	if a, b := score("sess", "New session"), score("ns", "New session"); a <= b {
		t.Errorf("one run at a word start %d should beat initials %d", a, b)
	}
	if a, b := score("ct", "cat"), score("ct", "cxxxxxxt"); a <= b {
		t.Errorf("tight subsequence %d should beat a loose one %d", a, b)
	}
	if a, b := score("tm", "cycleThinkingMode"), score("tm", "atom"); a <= b {
		t.Errorf("camelCase word starts %d should beat a plain subsequence %d", a, b)
	}
}

// The word-start search backtracks: the first "s" at a word start is not
// the one that lets the rest match.
func TestFuzzyWordStartBacktracks(t *testing.T) {
	s, ok, pos := fuzzyMatch("sb", "sa sb")
	if !ok || s < fuzzyTierWordStart || s >= fuzzyTierPrefix {
		t.Fatalf("score %d, positions %v: want a word-start match", s, pos)
	}
	if want := []int{3, 4}; !slices.Equal(pos, want) {
		t.Fatalf("positions %v, want %v", pos, want)
	}
}

func TestRankPalette(t *testing.T) {
	items := samplePalette()
	titles := func(q string) []string {
		var out []string
		for _, h := range rankPalette(q, items, rankOptions{details: true}) {
			out = append(out, items[h.item].Title)
		}
		return out
	}
	if got := titles(""); len(got) != len(items) || got[0] != items[0].Title || got[len(got)-1] != items[len(items)-1].Title {
		t.Fatalf("empty query reorders: %v", got)
	}
	got := titles("se")
	want := []string{"Session tree", "New session", "Open session…", "Export session as HTML", "Compact context"}
	if !slices.Equal(got, want) {
		t.Fatalf("\"se\" ranks %q, want %q", got, want)
	}
	// Slash commands match by name, not by their leading "/".
	slash := sampleSlash()
	hits := rankPalette("co", slash, rankOptions{skip: "/"})
	if len(hits) != 4 || slash[hits[0].item].Title != "/copy" || slash[hits[1].item].Title != "/compact" ||
		!slices.Equal(hits[0].pos, []int{1, 2}) {
		t.Fatalf("slash \"co\": %+v", hits)
	}
}
