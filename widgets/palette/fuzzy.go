package palette

import (
	"strings"
	"unicode"
)

// Score tiers. Any match of a better kind outranks every match of a worse
// kind; within a tier, up to fuzzySpan points order tighter and shorter
// matches first. rankPalette puts keyword matches (fuzzyTierKeyword)
// between word starts and scattered letters.
const (
	fuzzyTierSubsequence = 10000
	fuzzyTierKeyword     = 20000
	fuzzyTierWordStart   = 30000
	fuzzyTierPrefix      = 40000
	fuzzySpan            = 9999
)

// FuzzyScore reports whether every character of query appears in text in
// order, ignoring case, and how well: text starting with query scores
// highest, then query found at word starts ("ns" in "New Session", "sess"
// in "New session"), then query scattered anywhere. Higher is better; an
// empty query matches everything with score 0.
func FuzzyScore(query, text string) (score int, ok bool) {
	score, ok, _ = fuzzyMatch(query, text)
	return score, ok
}

// fuzzyMatch is FuzzyScore that also returns which runes of text matched,
// so a list can show why an entry is there.
func fuzzyMatch(query, text string) (int, bool, []int) {
	q := []rune(strings.TrimSpace(query))
	for i, r := range q {
		q[i] = unicode.ToLower(r)
	}
	if len(q) == 0 {
		return 0, true, nil
	}
	orig := []rune(text)
	t := make([]rune, len(orig))
	for i, r := range orig {
		t[i] = unicode.ToLower(r)
	}
	if len(q) > len(t) {
		return 0, false, nil
	}
	extra := len(t) - len(q)
	if string(t[:len(q)]) == string(q) {
		pos := make([]int, len(q))
		for i := range pos {
			pos[i] = i
		}
		return fuzzyTier(fuzzyTierPrefix, extra), true, pos
	}
	if pos := wordStartMatch(q, t, wordStarts(orig)); pos != nil {
		runs := 1
		for i := 1; i < len(pos); i++ {
			if pos[i] != pos[i-1]+1 {
				runs++
			}
		}
		return fuzzyTier(fuzzyTierWordStart, runs*100+pos[0]*4+extra), true, pos
	}
	if pos := tightestSubsequence(q, t); pos != nil {
		gaps := pos[len(pos)-1] - pos[0] + 1 - len(q)
		return fuzzyTier(fuzzyTierSubsequence, gaps*20+pos[0]*4+extra), true, pos
	}
	return 0, false, nil
}

func fuzzyTier(tier, penalty int) int {
	return tier + fuzzySpan - min(max(penalty, 0), fuzzySpan-1)
}

// wordStarts marks the runes that begin a word: the first letter or digit
// after anything else, and an upper-case letter after a lower-case one
// (camelCase).
func wordStarts(r []rune) []bool {
	starts := make([]bool, len(r))
	for i, c := range r {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			continue
		}
		if i == 0 {
			starts[i] = true
			continue
		}
		p := r[i-1]
		starts[i] = !unicode.IsLetter(p) && !unicode.IsDigit(p) || unicode.IsUpper(c) && unicode.IsLower(p)
	}
	return starts
}

// wordStartMatch finds q in t as runs of consecutive runes that each begin
// at a word start, trying the earliest and longest runs first. It returns
// the matched positions, or nil.
func wordStartMatch(q, t []rune, starts []bool) []int {
	pos := make([]int, 0, len(q))
	// failed[qi*(len(t)+1)+ti]: q[qi:] cannot be matched in t[ti:].
	failed := make([]bool, len(q)*(len(t)+1))
	var try func(qi, ti int) bool
	try = func(qi, ti int) bool {
		if qi == len(q) {
			return true
		}
		key := qi*(len(t)+1) + ti
		if failed[key] {
			return false
		}
		for s := ti; s < len(t); s++ {
			if !starts[s] || t[s] != q[qi] {
				continue
			}
			n := 1
			for qi+n < len(q) && s+n < len(t) && t[s+n] == q[qi+n] {
				n++
			}
			for ; n >= 1; n-- {
				for k := range n {
					pos = append(pos, s+k)
				}
				if try(qi+n, s+n) {
					return true
				}
				pos = pos[:len(pos)-n]
			}
		}
		failed[key] = true
		return false
	}
	if !try(0, 0) {
		return nil
	}
	return pos
}

// tightestSubsequence finds q in t as a subsequence spanning as few runes
// as possible, or returns nil.
func tightestSubsequence(q, t []rune) []int {
	bestStart, bestEnd := -1, len(t)
	for s := range t {
		if t[s] != q[0] {
			continue
		}
		qi, e := 1, s
		for i := s + 1; i < len(t) && qi < len(q); i++ {
			if t[i] == q[qi] {
				qi++
				e = i
			}
		}
		if qi < len(q) {
			break // no later start can match either
		}
		if bestStart < 0 || e-s < bestEnd-bestStart {
			bestStart, bestEnd = s, e
		}
	}
	if bestStart < 0 {
		return nil
	}
	pos := []int{bestStart}
	for i, qi := bestStart+1, 1; qi < len(q); i++ {
		if t[i] == q[qi] {
			pos = append(pos, i)
			qi++
		}
	}
	return pos
}
