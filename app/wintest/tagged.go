package wintest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// agentTagVar is the variable the app tags its agents with (proctree):
// "<apppid>.<appstart>.<n>", inherited by everything an agent starts.
const agentTagVar = "KNIGHTCODE_AGENT_TAG"

// AgentTag is the tag in pid's environment, "" when none.
func AgentTag(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(agentTagVar+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// Tagged lists the live processes whose agent tag starts with prefix: an
// app's ("<apppid>.") or one agent's (its whole tag).
func Tagged(prefix string) []int {
	var out []int
	for _, pid := range livePids() {
		if t := AgentTag(pid); t != "" && strings.HasPrefix(t, prefix) {
			out = append(out, pid)
		}
	}
	return out
}

// InGroup lists the live processes of process group pgid.
func InGroup(pgid int) []int {
	var out []int
	for _, pid := range livePids() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// Describe names pids with their command lines, for a failure message.
func Describe(pids []int) string {
	var parts []string
	for _, p := range pids {
		parts = append(parts, strconv.Itoa(p)+" ("+CommandLine(p)+")")
	}
	return strings.Join(parts, ", ")
}

func livePids() []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil && Running(n) {
			out = append(out, n)
		}
	}
	return out
}
