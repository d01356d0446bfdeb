package remote

import (
	"fmt"
	"strings"
)

// Started is what the remote side said on stderr about the agent it
// started.
type Started struct {
	// Agent is the agent's path on the remote machine.
	Agent string
	// How says how it was found: "found pi on a login shell's PATH",
	// "using ~/bin/agent as given".
	How string
	// PID is the agent's process id there, Group the process group (and
	// session) of the remote command, which the remote side ends when the
	// agent has ended. Both are 0 when not known.
	PID, Group int
	// Watchdog is false when the remote side could not tie the agent to
	// the connection (no FIFO): an agent that ignores the end of its input
	// then outlives the connection.
	Watchdog bool
}

// ParseStarted reads the remote side's lines from the stderr of an
// agent's ssh (Conn.StderrTail()); the zero Started when there are none.
func ParseStarted(stderr string) Started {
	var s Started
	s.Watchdog = true
	for _, m := range markerLines(stderr) {
		switch {
		case strings.HasPrefix(m, "agent "):
			s.Agent = strings.ReplaceAll(strings.TrimPrefix(m, "agent "), "\x01", "\n")
		case strings.HasPrefix(m, "found "), strings.HasPrefix(m, "using "):
			s.How = shown(m)
		case strings.HasPrefix(m, "started pid "):
			fmt.Sscanf(m, "started pid %d group %d", &s.PID, &s.Group)
		case strings.HasPrefix(m, "warning no-watchdog"):
			s.Watchdog = false
		}
	}
	return s
}

// markerLines are the remote side's lines in stderr, without the prefix.
func markerLines(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(line, markerPrefix+" "); ok {
			out = append(out, strings.TrimRight(rest, "\r"))
		}
	}
	return out
}

// markerError is the remote side's error line: its kind ("folder-missing")
// and its words.
func markerError(stderr string) (kind, words string, ok bool) {
	for _, m := range markerLines(stderr) {
		if rest, found := strings.CutPrefix(m, "error "); found {
			kind, words, _ = strings.Cut(rest, ": ")
			words, ok = shown(words), true
		}
	}
	return kind, words, ok
}

// sshLines is stderr without the remote side's lines: what ssh (or the
// remote shell) said.
func sshLines(stderr string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if !strings.HasPrefix(line, markerPrefix) {
			out = append(out, strings.TrimRight(line, "\r"))
		}
	}
	return strings.Join(out, "\n")
}

// shown is a marker's text for people: the newlines the remote side
// turned into \001 written as \n.
func shown(s string) string { return strings.ReplaceAll(s, "\x01", `\n`) }
