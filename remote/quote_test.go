package remote

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// quotingCases are words a remote command must pass through unchanged.
var quotingCases = []string{
	"", "plain", "with space", "  lead and trail  ", "it's", `say "hi"`, `back\slash`, `\'`, `'\''`,
	"$HOME", "${PATH}", "$(id)", "`id`", "a;b", "a && b", "a|b", "*", "*.go", "?", "[ab]", "~", "~/x", "#not a comment",
	"line\nbreak", "\n", "tab\there", "!bang", "!!", "-n", "--mode=rpc", "=x", "x=y", "%s", "é ü 漢字", "a\x01b",
}

func TestQuoteShellThroughShells(t *testing.T) {
	for _, sh := range []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "csh", "tcsh", "fish"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		cases := quotingCases
		if strings.HasSuffix(sh, "csh") {
			// csh cannot take a newline inside quotes (see QuoteShell).
			cases = slices.DeleteFunc(slices.Clone(cases), func(w string) bool { return strings.Contains(w, "\n") })
		}
		t.Run(sh, func(t *testing.T) {
			// The shell runs printf with every word: what it prints
			// between NULs must be the words themselves.
			cmdline := "printf '%s\\0' " + QuoteCommand(cases...)
			out, err := exec.Command(path, "-c", cmdline).Output()
			if err != nil {
				t.Fatalf("%s -c %q: %v", sh, cmdline, err)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			if len(got) != len(cases) {
				t.Fatalf("%s got %d words, want %d: %q", sh, len(got), len(cases), got)
			}
			for i, w := range cases {
				if got[i] != w {
					t.Errorf("%s: %q came out as %q (quoted %s)", sh, w, got[i], QuoteShell(w))
				}
			}
		})
	}
}

func TestQuoteShellForms(t *testing.T) {
	for in, want := range map[string]string{
		"":           "''",
		"plain":      "plain",
		"a/b-c.d":    "a/b-c.d",
		"-n":         "'-n'",
		"with space": "'with space'",
		"it's":       `'it'\''s'`,
		`a\b`:        `'a'\\'b'`,
		"$x":         "'$x'",
		"a!b":        `'a'\!'b'`,
	} {
		if got := QuoteShell(in); got != want {
			t.Errorf("QuoteShell(%q) = %s, want %s", in, got, want)
		}
	}
}
