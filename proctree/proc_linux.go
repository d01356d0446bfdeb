package proctree

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// proc is what End needs to know of one process, from /proc.
type proc struct {
	pid, ppid, pgid, sid int
	start                uint64 // clock ticks after boot
	zombie               bool
}

// readProc parses /proc/PID/stat. The command name, in parentheses, may hold
// spaces and parentheses itself, so the fields are counted after the last ')'.
func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	// From the state (field 3) on; starttime is field 22.
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return proc{}, false
	}
	p := proc{pid: pid, zombie: f[0] == "Z" || f[0] == "X"}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.sid, _ = strconv.Atoi(f[3])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, true
}

// allProcs lists every process /proc shows.
func allProcs() []proc {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]proc, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// tagOf reads a process's tag from its environment as it was started; ""
// when it has none or the environment cannot be read (another user's
// process, a zombie).
func tagOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	prefix := []byte(EnvTag + "=")
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(v)
		}
	}
	return ""
}

func selfStartTime() uint64 {
	p, _ := readProc(os.Getpid())
	return p.start
}

// Tagged returns the live processes that carry tag.
func Tagged(tag string) []int {
	var out []int
	for _, p := range allProcs() {
		if !p.zombie && tagOf(p.pid) == tag {
			out = append(out, p.pid)
		}
	}
	return out
}

// InGroup returns the live processes of process group pgid (a zombie has
// ended; its parent, or init, has yet to reap it).
func InGroup(pgid int) []int {
	var out []int
	for _, p := range allProcs() {
		if p.pgid == pgid && !p.zombie {
			out = append(out, p.pid)
		}
	}
	return out
}
