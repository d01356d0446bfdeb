package palette

import (
	"slices"
	"strings"
	"unicode"

	"knightcode.ai/desktop/model"
)

// A keyword match (fuzzyTierKeyword) sits between a title's word starts
// and its scattered letters: "theme" finds Settings by a word of its
// detail before it finds the letters t-h-e-m-e strewn over "New tab on
// another machine".

// keywordBonus puts a keyword the item was given on purpose before a word
// of its detail; wordsScore's bonus for whole words stays below it.
const keywordBonus = 100

// paletteHit is an item that matched the query.
type paletteHit struct {
	item  int
	score int
	pos   []int // matched runes of the title, to draw in bold
}

// rankOptions say how rankPalette reads the items.
type rankOptions struct {
	// skip is a prefix of titles the query is not expected to repeat ("/"
	// for slash commands).
	skip string
	// details lets a word of an item's detail find it.
	details bool
	// recent are item IDs, most recently used first.
	recent []string
}

// rankPalette returns the items matching query, best first: a title that
// starts with the query, then the query at a title's word starts, then a
// keyword (or, with details, a word of the detail) starting with each
// word of the query, then the title's letters scattered, then the query
// anywhere in the detail. Among equals the recently used come first, then
// the items' order, so an empty query lists the recent ones and then the
// rest as given. An unavailable item comes after the available ones that
// match as well (of its tier): an empty query lists it last, but "stop"
// still finds Stop, greyed, before the scattered letters of "System
// prompt", rather than offering the latter to Enter.
func rankPalette(query string, items []model.PaletteItem, o rankOptions) []paletteHit {
	hits := make([]paletteHit, 0, len(items))
	q := strings.ToLower(strings.TrimSpace(query))
	off := len([]rune(o.skip))
	for i, it := range items {
		title := it.Title
		shift := 0
		if o.skip != "" && strings.HasPrefix(title, o.skip) {
			title, shift = title[len(o.skip):], off
		}
		score, ok, pos := fuzzyMatch(q, title)
		for k := range pos {
			pos[k] += shift
		}
		if q != "" && score < fuzzyTierKeyword {
			if ks, kok := keywordScore(q, it, o.details); kok && (!ok || ks > score) {
				score, ok, pos = ks, true, nil
			}
		}
		if !ok && o.details && q != "" && strings.Contains(strings.ToLower(it.Detail), q) {
			score, ok = 1, true
		}
		if ok {
			hits = append(hits, paletteHit{item: i, score: score, pos: pos})
		}
	}
	recency := make(map[string]int, len(o.recent))
	for i, id := range o.recent {
		if _, seen := recency[id]; !seen {
			recency[id] = i
		}
	}
	rank := func(h paletteHit) int {
		if r, ok := recency[items[h.item].ID]; ok {
			return r
		}
		return len(o.recent)
	}
	slices.SortStableFunc(hits, func(a, b paletteHit) int {
		ua, ub := items[a.item].Unavailable != "", items[b.item].Unavailable != ""
		switch ta, tb := scoreTier(a.score), scoreTier(b.score); {
		case ta != tb:
			return tb - ta
		case ua != ub && ua:
			return 1
		case ua != ub:
			return -1
		case a.score != b.score:
			return b.score - a.score
		}
		return rank(a) - rank(b)
	})
	return hits
}

// scoreTier is the kind of match a score stands for (fuzzyTier*), 0 for a
// detail that merely holds the query.
func scoreTier(score int) int { return score / fuzzyTierSubsequence }

// keywordScore matches each word of q to the start of one of the item's
// keywords, or with details of its detail's words.
func keywordScore(q string, it model.PaletteItem, details bool) (int, bool) {
	if s, ok := wordsScore(q, it.Keywords); ok {
		return fuzzyTierKeyword + 1 + keywordBonus + s, true
	}
	if details {
		if s, ok := wordsScore(q, it.Detail); ok {
			return fuzzyTierKeyword + 1 + s, true
		}
	}
	return 0, false
}

// wordsScore reports whether every word of q starts a word of text, and a
// bonus (below keywordBonus) for whole words matched exactly.
func wordsScore(q, text string) (int, bool) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) == 0 {
		return 0, false
	}
	bonus := 0
	for _, qw := range strings.Fields(q) {
		found, whole := false, false
		for _, w := range words {
			if strings.HasPrefix(w, qw) {
				found = true
				whole = whole || w == qw
			}
		}
		if !found {
			return 0, false
		}
		if whole {
			bonus++
		}
	}
	return min(bonus, keywordBonus-1), true
}
