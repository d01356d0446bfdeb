package model

import "strings"

// Plain makes extension-supplied text safe to show in labels: control
// characters other than newline and tab are dropped. Labels never interpret
// markup, so nothing else needs escaping.
func Plain(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' {
			return -1
		}
		return r
	}, s)
}
