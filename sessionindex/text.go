package sessionindex

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The snippet markers SQLite puts around matches. They are taken out of
// indexed text, so each one in a snippet is a marker.
const (
	markOpen  = '\x01'
	markClose = '\x02'
)

// zwsp separates neighbouring CJK characters so that unicode61 makes each
// one a token (it is a format character, which unicode61 treats as a
// separator).
const zwsp = '\u200b'

func isCJK(r rune) bool {
	return r >= 0x2e80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

// clean prepares text for the index: cut to max bytes, markers and invalid
// UTF-8 replaced, and with cjk a zero-width space between CJK characters.
func clean(s string, max int, cjk bool) string {
	s = cut(s, max)
	if s == "" {
		return s
	}
	need := !utf8.ValidString(s)
	prevCJK := false
	for _, r := range s {
		if r == markOpen || r == markClose || r == zwsp {
			need = true
			break
		}
		c := cjk && isCJK(r)
		if c && prevCJK {
			need = true
			break
		}
		prevCJK = c
	}
	if !need {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + len(s)/4)
	prevCJK = false
	for _, r := range s { // invalid bytes come as U+FFFD
		switch r {
		case markOpen, markClose, zwsp:
			sb.WriteByte(' ')
			prevCJK = false
			continue
		}
		c := cjk && isCJK(r)
		if c && prevCJK {
			sb.WriteRune(zwsp)
		}
		prevCJK = c
		sb.WriteRune(r)
	}
	return sb.String()
}

// Range is a match in a snippet, in bytes: Snippet[Start:End].
type Range struct{ Start, End int }

// parseSnippet turns SQLite's snippet, with markers around matches and the
// zero-width spaces clean added, into plain text and the matches' ranges.
func parseSnippet(s string) (string, []Range) {
	var sb strings.Builder
	sb.Grow(len(s))
	var ranges []Range
	open := -1
	for _, r := range s {
		switch r {
		case zwsp:
		case markOpen:
			open = sb.Len()
		case markClose:
			if open >= 0 && sb.Len() > open {
				if n := len(ranges); n > 0 && ranges[n-1].End == open {
					ranges[n-1].End = sb.Len() // neighbouring CJK tokens: one match
				} else {
					ranges = append(ranges, Range{open, sb.Len()})
				}
			}
			open = -1
		case '\n', '\r', '\t':
			sb.WriteByte(' ')
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String(), ranges
}

// isTokenRune is what unicode61 keeps in tokens: letters, numbers and
// private-use characters.
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// ftsQuery turns what the user typed into an FTS5 query that cannot fail to
// parse: every word is a quoted phrase (FTS5 splits it into tokens as it
// split the text, so "src/main.go" is a phrase of three), words are ANDed,
// and unless the query ends with a space the last word is a prefix, so
// results come while typing. Words without a letter or digit are dropped.
// With trigram, words of fewer than three characters are dropped (they match
// nothing) and no prefix is needed. It returns "" when nothing is left.
func ftsQuery(q string, trigram bool) string {
	words := strings.Fields(q)
	endsInSpace := len(q) > 0 && strings.TrimRightFunc(q, unicode.IsSpace) != q
	var parts []string
	for i, w := range words {
		w = clean(w, len(w), !trigram)
		w = strings.Map(func(r rune) rune {
			if r == markOpen || r == markClose || r == utf8.RuneError {
				return ' '
			}
			return r
		}, w)
		if strings.IndexFunc(w, isTokenRune) < 0 {
			continue
		}
		if trigram && utf8.RuneCountInString(w) < 3 {
			continue
		}
		phrase := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if !trigram && i == len(words)-1 && !endsInSpace && prefixable(w) {
			phrase += "*"
		}
		parts = append(parts, phrase)
	}
	return strings.Join(parts, " ")
}

// prefixable reports whether the last token of a word is worth a prefix
// query: two characters at least (one matches too much to be quick or
// useful), and not CJK, which is a token per character anyway.
func prefixable(w string) bool {
	n, last := 0, rune(0)
	for i := len(w); i > 0; {
		r, size := utf8.DecodeLastRuneInString(w[:i])
		i -= size
		if !isTokenRune(r) {
			if n == 0 {
				continue // trailing punctuation: the token before it counts
			}
			break
		}
		if n == 0 {
			last = r
		}
		n++
	}
	return n >= 2 && !isCJK(last)
}
