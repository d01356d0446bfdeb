package widgets

import (
	"strings"
	"unicode/utf8"

	"knightcode.ai/desktop/model"
)

// indexFold is the byte offset of the first match of q in s ignoring
// case, or -1. ASCII queries are matched without copying s; others by
// Unicode simple folding, rune by rune.
func indexFold(s, q string) int {
	if q == "" {
		return -1
	}
	if isASCII(q) {
		return indexFoldASCII(s, q)
	}
	for i := range s {
		if hasPrefixFold(s[i:], q) {
			return i
		}
	}
	return -1
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// indexFoldASCII looks for q's first byte in either case with a fast
// search, then compares the rest.
func indexFoldASCII(s, q string) int {
	first := lowerASCII(q[0])
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for off := 0; off+len(q) <= len(s); {
		rest := s[off : len(s)-len(q)+1]
		i := strings.IndexByte(rest, first)
		if upper != first {
			if j := strings.IndexByte(rest, upper); j >= 0 && (i < 0 || j < i) {
				i = j
			}
		}
		if i < 0 {
			return -1
		}
		at := off + i
		if equalFoldASCII(s[at:at+len(q)], q) {
			return at
		}
		off = at + 1
	}
	return -1
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(b); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, q string) bool {
	for _, qr := range q {
		if s == "" {
			return false
		}
		r, n := utf8.DecodeRuneInString(s)
		if r != qr && !strings.EqualFold(string(r), string(qr)) {
			return false
		}
		s = s[n:]
	}
	return true
}

// countFold counts the matches of q in s, not overlapping.
func countFold(s, q string) int {
	n := 0
	for {
		i := indexFold(s, q)
		if i < 0 {
			return n
		}
		n++
		s = s[i+max(len(q), 1):]
	}
}

// allFold lists the byte ranges of the matches of q in s.
func allFold(s, q string) []selRange {
	var out []selRange
	at := 0
	for {
		i := indexFold(s[at:], q)
		if i < 0 {
			return out
		}
		out = append(out, selRange{at + i, at + i + len(q)})
		at += i + max(len(q), 1)
	}
}

// searchText is what find looks through in an entry: the text it shows,
// as the session holds it (a reply's markdown, a command and its output).
func searchText(it *model.ChatItem) []string {
	switch it.Kind {
	case model.ChatAssistant:
		out := make([]string, 0, len(it.Blocks))
		for _, b := range it.Blocks {
			if b.Kind != model.BlockToolCall {
				out = append(out, b.Text)
			}
		}
		return out
	case model.ChatBash:
		return []string{it.Command, it.Text}
	}
	return []string{it.Text}
}
