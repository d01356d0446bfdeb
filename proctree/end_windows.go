package proctree

import (
	"errors"
	"time"
)

// BecomeSubreaper has no Windows counterpart.
func BecomeSubreaper() error { return SetSubreaper(true) }

// SetSubreaper has no Windows counterpart.
func SetSubreaper(on bool) error { return errors.New("no child subreaper on Windows") }

// End does nothing on Windows: there is no process group to signal, and
// rpcconn kills the agent's whole tree with taskkill /T while the agent is
// still there to name it. A tool whose agent already died is out of reach.
func End(tag string, pgid int, grace time.Duration) {}

// EndOrphans does nothing on Windows (see End).
func EndOrphans() {}

// Tagged finds nothing on Windows.
func Tagged(tag string) []int { return nil }

// InGroup finds nothing on Windows.
func InGroup(pgid int) []int { return nil }

func selfStartTime() uint64 { return uint64(time.Now().Unix()) }
