// Package nth finds the n-th occurrence of a byte in a string: where to cut
// text after n lines. The model (a tool card's diff) and the widgets (a
// monospace pane's kept lines) both cut so; it lives here because the model
// may not import the widgets. It imports only the standard library.
package nth

import "strings"

// IndexByte is the index of the n-th (1-based) c in s, or -1 if s holds
// fewer than n.
func IndexByte(s string, c byte, n int) int {
	at := -1
	for ; n > 0; n-- {
		i := strings.IndexByte(s[at+1:], c)
		if i < 0 {
			return -1
		}
		at += i + 1
	}
	return at
}
