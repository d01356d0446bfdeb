package proctree

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// EnvTag is the environment variable that carries an agent's tag. Processes
// inherit it, so it marks everything the agent starts, unless a program
// clears its children's environment.
const EnvTag = "KNIGHTCODE_AGENT_TAG"

// appStart is this process's start time as tags name it (on Linux the start
// time in /proc, so EndOrphans can tell a running app from a reused pid).
var appStart = selfStartTime()

var tagCount atomic.Uint64

// NewTag returns a tag no other agent of any app has: "<apppid>.<appstart>.<n>".
func NewTag() string {
	return fmt.Sprintf("%d.%d.%d", os.Getpid(), appStart, tagCount.Add(1))
}

// EnvVar is the KEY=VALUE entry that gives a process tag.
func EnvVar(tag string) string { return EnvTag + "=" + tag }

// owner reads the app's pid and start time from a tag.
func owner(tag string) (pid int, start uint64, ok bool) {
	parts := strings.Split(tag, ".")
	if len(parts) != 3 {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(parts[0])
	start, err2 := strconv.ParseUint(parts[1], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return 0, 0, false
	}
	return pid, start, true
}
