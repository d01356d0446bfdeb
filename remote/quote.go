package remote

import "strings"

// QuoteShell quotes s as one word for a POSIX shell: runs of characters in
// single quotes, each ', \ and ! outside them escaped with a backslash. A
// word of only safe characters stays as it is, and the empty string is a
// pair of single quotes.
//
// Keeping backslashes out of the quotes costs nothing in sh, bash, dash,
// ksh or zsh and makes the same text mean the same in fish (which reads \\
// and \' inside single quotes) and csh (as long as s has no newline); csh
// and tcsh expand history (!x) even inside single quotes and even under -c,
// so ! goes outside them too.
func QuoteShell(s string) string {
	if s == "" {
		return "''"
	}
	if isSafeWord(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	open := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' || c == '\\' || c == '!' {
			if open {
				b.WriteByte('\'')
				open = false
			}
			b.WriteByte('\\')
			b.WriteByte(c)
			continue
		}
		if !open {
			b.WriteByte('\'')
			open = true
		}
		b.WriteByte(c)
	}
	if open {
		b.WriteByte('\'')
	}
	return b.String()
}

// QuoteCommand quotes each word and joins them with spaces.
func QuoteCommand(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = QuoteShell(w)
	}
	return strings.Join(q, " ")
}

// isSafeWord reports a word no shell changes: letters, digits and
// _@%+=:,./- (not starting with - or =, which read as options or, in zsh,
// as a command lookup, nor with ~ or #, which no character here is).
func isSafeWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_@%+:,./", c) >= 0:
		case (c == '-' || c == '=') && i > 0:
		default:
			return false
		}
	}
	return true
}
