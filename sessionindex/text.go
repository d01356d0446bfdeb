package sessionindex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// What FTS5's unicode61 tokenizer does, done again in Go: the query is
// split into the same tokens the index holds, and a snippet's matches are
// found in an entry's text without asking SQLite for it (the index keeps no
// copy of the text; see the package doc).

// zwsp separates neighbouring CJK characters so that unicode61 makes each
// one a token (it is a format character, which unicode61 treats as a
// separator).
const zwsp = '\u200b'

func isCJK(r rune) bool {
	return r >= 0x2e80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

// isTokenRune is what unicode61 keeps in tokens: letters, numbers,
// private-use characters and the combining diacritics (é written as e and
// U+0301 is one token); everything else, other marks too, separates tokens. (SQLite's tables are of
// an older Unicode: a character assigned since, such as an emoji of 2014,
// may be a token character there and not here.)
func isTokenRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || isDiacritic(r)
}

// clean prepares text for the index: cut to max bytes, and a zero-width
// space put between neighbouring CJK characters.
func clean(s string, max int) string {
	s = cut(s, max)
	need := false
	prevCJK := false
	for _, r := range s {
		c := r >= 0x2e80 && isCJK(r)
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
	sb.Grow(len(s) + len(s)/2)
	prevCJK = false
	for _, r := range s {
		c := r >= 0x2e80 && isCJK(r)
		if c && prevCJK {
			sb.WriteRune(zwsp)
		}
		prevCJK = c
		sb.WriteRune(r)
	}
	return sb.String()
}

// tokens calls fn with the byte range of each token of s as the index has
// it: runs of token runes, split between neighbouring CJK characters.
func tokens(s string, fn func(start, end int)) {
	start := -1
	prevCJK := false
	for i, r := range s {
		if !isTokenRune(r) {
			if start >= 0 {
				fn(start, i)
				start = -1
			}
			prevCJK = false
			continue
		}
		c := r >= 0x2e80 && isCJK(r)
		if start >= 0 && c && prevCJK {
			fn(start, i)
			start = -1
		}
		if start < 0 {
			start = i
		}
		prevCJK = c
	}
	if start >= 0 {
		fn(start, len(s))
	}
}

// fold is a token as the index compares it: lower case, and Latin letters
// without their diacritics, as unicode61 with remove_diacritics 2 folds
// them (Greek, Cyrillic and kana keep theirs).
func fold(tok string) string {
	ascii := true
	lower := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			lower = false
		}
	}
	if ascii {
		if lower {
			return tok
		}
		return strings.ToLower(tok)
	}
	var sb strings.Builder
	sb.Grow(len(tok))
	for _, r := range tok {
		r = unicode.ToLower(r)
		switch {
		case r < utf8.RuneSelf:
			sb.WriteRune(r)
		case isDiacritic(r):
		case r == 'ς':
			sb.WriteRune('σ')
		case unicode.Is(unicode.Latin, r):
			var buf [utf8.UTFMax]byte
			n := utf8.EncodeRune(buf[:], r)
			d := norm.NFD.Properties(buf[:n]).Decomposition()
			if d == nil {
				sb.WriteRune(r)
				continue
			}
			for _, dr := range string(d) {
				if !isDiacritic(dr) {
					sb.WriteRune(unicode.ToLower(dr))
				}
			}
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// isDiacritic is a combining diacritical mark, which unicode61 drops.
func isDiacritic(r rune) bool { return 0x300 <= r && r <= 0x36f }

// phrase is one word of a query: its tokens, folded, and whether the last
// one is a prefix.
type phrase struct {
	tokens []string
	prefix bool
}

// query is what the user typed, as an FTS5 query and as the phrases a
// snippet looks for.
type query struct {
	fts     string
	phrases []phrase
}

// parseQuery turns what the user typed into an FTS5 query that cannot fail
// to parse: every word becomes a quoted phrase of its tokens, which hold
// only letters and digits (so quotes, *, -, :, ^, parentheses and the words
// AND, OR, NOT and NEAR are text, never syntax; "src/main.go" is the phrase
// src main go), and the phrases are ANDed. Unless the query ends with a
// space the last word's last token is a prefix, so results come while
// typing (a word that ends in * is one anywhere); not when it is a single
// character (it would match too much to be
// quick or useful) or CJK (a token per character anyway). Words without a
// letter or digit are dropped; the query is empty ("") when nothing is left.
func parseQuery(q string) query {
	words := strings.Fields(q)
	endsInSpace := len(q) > 0 && strings.TrimRightFunc(q, unicode.IsSpace) != q
	var out query
	var sb strings.Builder
	for i, w := range words {
		var raw, folded []string
		tokens(w, func(start, end int) {
			raw = append(raw, w[start:end])
			folded = append(folded, fold(w[start:end]))
		})
		if len(raw) == 0 {
			continue
		}
		p := phrase{tokens: folded}
		if strings.HasSuffix(w, "*") || i == len(words)-1 && !endsInSpace {
			last := raw[len(raw)-1]
			r, _ := utf8.DecodeLastRuneInString(last)
			p.prefix = utf8.RuneCountInString(last) >= 2 && !isCJK(r)
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte('"')
		// Tokens hold no quote; doubled all the same, as FTS5 escapes one.
		sb.WriteString(strings.ReplaceAll(strings.Join(raw, " "), `"`, `""`))
		sb.WriteByte('"')
		if p.prefix {
			sb.WriteByte('*')
		}
		out.phrases = append(out.phrases, p)
	}
	out.fts = sb.String()
	return out
}
