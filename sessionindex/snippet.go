package sessionindex

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Range is a match in a snippet, as byte offsets: Snippet[Start:End] is the
// matched text. RuneRanges gives them as rune offsets.
type Range struct{ Start, End int }

// RuneRanges converts byte ranges in s to rune ranges: the offsets a text
// widget that counts characters (a cursor column, a selection) takes.
func RuneRanges(s string, byteRanges []Range) []Range {
	out := make([]Range, len(byteRanges))
	for i, r := range byteRanges {
		start := utf8.RuneCountInString(s[:r.Start])
		out[i] = Range{start, start + utf8.RuneCountInString(s[r.Start:r.End])}
	}
	return out
}

// Bounds on a snippet's parts, in runes: a token or a gap between tokens
// longer than this (a base64 blob, a line of "=====") is shown cut.
const (
	snippetTokenRunes = 48
	snippetGapRunes   = 24
	// snippetLead is how many tokens a snippet shows before its first match.
	snippetLead = 4
	// snippetMatches bounds the matches a field is searched for.
	snippetMatches = 2000
)

// tok is a token of a field: its byte range and folded text.
type tok struct {
	start, end int
	fold       string
}

// match is an occurrence of a phrase: tokens first to last (inclusive).
type match struct{ first, last, phrase int }

// snippetScore orders candidate snippets: more distinct phrases first, then
// more matches.
type snippetScore struct{ distinct, total int }

func (a snippetScore) better(b snippetScore) bool {
	return a.distinct > b.distinct || a.distinct == b.distinct && a.total > b.total
}

// snippet picks the window of about n tokens of text where the phrases
// match most, and returns it on one line (white space collapsed, "…" where
// text was left out) with the matches' byte ranges in it. With no match it
// returns the text's start, and a zero score.
func snippet(text string, phrases []phrase, n int) (string, []Range, snippetScore) {
	var toks []tok
	tokens(text, func(start, end int) {
		toks = append(toks, tok{start, end, fold(text[start:end])})
	})
	if len(toks) == 0 {
		return "", nil, snippetScore{}
	}
	ms := findMatches(toks, phrases)
	// The window: n tokens from a little before a match, the one that
	// holds the most distinct phrases, then the most matches.
	ws, best := 0, snippetScore{}
	var seen []int
	for i, m := range ms {
		start := max(0, m.first-snippetLead)
		end := start + n
		seen = seen[:0]
		sc := snippetScore{}
		for _, o := range ms[i:] {
			if o.last >= end {
				break
			}
			sc.total++
			if !slices.Contains(seen, o.phrase) {
				seen = append(seen, o.phrase)
				sc.distinct++
			}
		}
		if sc.better(best) {
			ws, best = start, sc
		}
		if best.distinct == len(phrases) && best.total >= n/2 {
			break
		}
	}
	we := min(len(toks), ws+n)
	var inWin []match
	for _, m := range ms {
		if m.first >= ws && m.last < we {
			inWin = append(inWin, m)
		}
	}
	s, ranges := render(text, toks, ws, we, inWin)
	return s, ranges, best
}

// findMatches finds every occurrence of each phrase in toks, in order, at
// most snippetMatches of them.
func findMatches(toks []tok, phrases []phrase) []match {
	var ms []match
	for i := range toks {
		for p, ph := range phrases {
			if phraseAt(toks, i, ph) {
				ms = append(ms, match{i, i + len(ph.tokens) - 1, p})
				break
			}
		}
		if len(ms) >= snippetMatches {
			break
		}
	}
	return ms
}

func phraseAt(toks []tok, i int, ph phrase) bool {
	if i+len(ph.tokens) > len(toks) {
		return false
	}
	for j, want := range ph.tokens {
		got := toks[i+j].fold
		if ph.prefix && j == len(ph.tokens)-1 {
			if !strings.HasPrefix(got, want) {
				return false
			}
		} else if got != want {
			return false
		}
	}
	return true
}

// render writes tokens ws to we of text on one line, with the matches'
// ranges.
func render(text string, toks []tok, ws, we int, ms []match) (string, []Range) {
	var w lineWriter
	if ws > 0 {
		w.sb.WriteString("… ")
		w.space = true
	}
	var ranges []Range
	mi := 0
	for i := ws; i < we; i++ {
		t := toks[i]
		if i > ws {
			w.gap(text[toks[i-1].end:t.start])
		} else if ws == 0 {
			w.gap(text[:t.start])
		}
		if mi < len(ms) && ms[mi].first == i {
			// A phrase of several tokens is one range, what is between
			// them included (src/main.go, 数据库).
			m := ms[mi]
			mi++
			start := w.sb.Len()
			for j := m.first; j <= m.last; j++ {
				if j > m.first {
					w.gap(text[toks[j-1].end:toks[j].start])
				}
				w.token(text[toks[j].start:toks[j].end])
			}
			ranges = append(ranges, Range{start, w.sb.Len()})
			i = m.last
			continue
		}
		w.token(text[t.start:t.end])
	}
	if we < len(toks) {
		w.gap(" ")
		w.sb.WriteString("…")
	} else {
		w.gap(text[toks[we-1].end:])
	}
	return strings.TrimRightFunc(w.sb.String(), unicode.IsSpace), ranges
}

// lineWriter writes a snippet on one line: white space collapsed to single
// spaces, long tokens and gaps cut.
type lineWriter struct {
	sb    strings.Builder
	space bool // the last byte written is a space, or nothing is written
}

func (w *lineWriter) token(s string) {
	if utf8.RuneCountInString(s) > snippetTokenRunes {
		s = cutRunes(s, snippetTokenRunes) + "…"
	}
	w.sb.WriteString(s)
	w.space = false
}

func (w *lineWriter) gap(s string) {
	if utf8.RuneCountInString(s) > snippetGapRunes {
		s = cutRunes(s, snippetGapRunes/2) + " … "
	}
	for _, r := range s {
		if unicode.IsSpace(r) || r == zwsp {
			if !w.space && w.sb.Len() > 0 {
				w.sb.WriteByte(' ')
			}
			w.space = true
			continue
		}
		if r == utf8.RuneError || unicode.IsControl(r) {
			continue
		}
		w.sb.WriteRune(r)
		w.space = false
	}
}

func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
