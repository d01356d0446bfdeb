package remote

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGitWordsThroughLoginShells runs the command line Git sends as each
// login shell found here would (csh, tcsh and fish too): the words the
// script ends up with must be the words given, newlines included, and the
// line itself must have no newline, which csh cannot take inside quotes.
func TestGitWordsThroughLoginShells(t *testing.T) {
	words := append([]string{}, quotingCases...)
	words = append(words, "trailing\n", "a\\nb", "\\\n\\", "%b %s \\0101 \\c", "new\nline.txt", "-dash", "")
	cmdline, err := scriptCommand(decodeWords+`printf '%s\0' "$@"`, words)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(cmdline, "\n\r") {
		t.Fatalf("the command line has a line break: %q", cmdline)
	}
	ran := 0
	for _, sh := range []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "csh", "tcsh", "fish"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		ran++
		t.Run(sh, func(t *testing.T) {
			out, err := exec.Command(path, "-c", cmdline).Output()
			if err != nil {
				t.Fatalf("%s -c: %v", sh, err)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			if len(got) != len(words) {
				t.Fatalf("%s got %d words, want %d: %q", sh, len(got), len(words), got)
			}
			for i, w := range words {
				if got[i] != w {
					t.Errorf("%s: %q came out as %q", sh, w, got[i])
				}
			}
		})
	}
	if ran == 0 {
		t.Skip("no shell found")
	}
	if _, err := scriptCommand(decodeWords, []string{"a\x00b"}); err == nil {
		t.Error("a word with a NUL was sent")
	}
}
