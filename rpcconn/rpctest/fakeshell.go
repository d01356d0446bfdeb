package rpctest

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// shellResult is what a command would have produced. Nothing is executed:
// the fake must be safe to drive with any text a test or a user types.
type shellResult struct {
	output   string
	exitCode int
	wait     time.Duration // before output, as a slow command would
}

// fakeShell understands a handful of commands well enough for tests:
// echo, seq, exit, true, false, pwd and sleep. Anything else prints one line.
func fakeShell(cmdline, cwd string) shellResult {
	fields := strings.Fields(cmdline)
	if len(fields) == 0 {
		return shellResult{}
	}
	args := fields[1:]
	switch fields[0] {
	case "echo":
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cmdline), "echo"))
		newline := "\n"
		if r, ok := strings.CutPrefix(rest, "-n "); ok {
			rest, newline = r, ""
		}
		return shellResult{output: unquote(rest) + newline}
	case "seq":
		return seq(args)
	case "exit":
		code := 0
		if len(args) > 0 {
			code = clampInt(args[0], 0, 255)
		}
		return shellResult{exitCode: code}
	case "true":
		return shellResult{}
	case "false":
		return shellResult{exitCode: 1}
	case "pwd":
		return shellResult{output: cwd + "\n"}
	case "sleep":
		secs := 1.0
		if len(args) > 0 {
			secs, _ = strconv.ParseFloat(args[0], 64)
		}
		return shellResult{wait: time.Duration(math.Min(secs, 3600) * float64(time.Second))}
	}
	return shellResult{output: fmt.Sprintf("fake shell: pretended to run %q\n", cmdline)}
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// seq prints up to a million numbers; more would only exhaust memory.
func seq(args []string) shellResult {
	lo, hi := 1, 0
	switch len(args) {
	case 0:
		return shellResult{output: "seq: missing operand\n", exitCode: 1}
	case 1:
		hi = clampInt(args[0], 0, 1_000_000)
	default:
		lo, hi = clampInt(args[0], -1_000_000, 1_000_000), clampInt(args[1], -1_000_000, 1_000_000)
		hi = min(hi, lo+1_000_000)
	}
	var b strings.Builder
	for i := lo; i <= hi; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return shellResult{output: b.String()}
}

const (
	maxOutputLines = 2000
	maxOutputBytes = 50 << 10
)

// truncateTail keeps the end of a long output, as the agent does, and saves
// the whole of it to a file whose path it returns ("" if it could not).
func truncateTail(output string) (kept string, truncated bool, fullPath string) {
	lines := strings.SplitAfter(output, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start, size := len(lines), 0
	for start > 0 && len(lines)-start < maxOutputLines && size+len(lines[start-1]) <= maxOutputBytes {
		start--
		size += len(lines[start])
	}
	if start == 0 {
		return output, false, ""
	}
	if f, err := os.CreateTemp("", "knightcode-bash-*.log"); err == nil {
		f.WriteString(output)
		f.Close()
		fullPath = f.Name()
	}
	return strings.Join(lines[start:], ""), true, fullPath
}
