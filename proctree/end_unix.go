//go:build unix && !linux

package proctree

import (
	"syscall"
	"time"
)

// BecomeSubreaper is Linux only; elsewhere orphans go to init.
func BecomeSubreaper() error { return SetSubreaper(true) }

// SetSubreaper is Linux only.
func SetSubreaper(on bool) error { return syscall.ENOTSUP }

// End signals the agent's process group only: without /proc the tag cannot
// be read back, and tools in sessions of their own are out of reach here
// (the agent ends those itself when asked to stop).
func End(tag string, pgid int, grace time.Duration) {
	if pgid <= 1 || pgid == syscall.Getpgrp() {
		return
	}
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if syscall.Kill(-pgid, 0) != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// EndOrphans needs /proc; elsewhere it does nothing.
func EndOrphans() {}

// Tagged needs /proc; elsewhere it finds nothing.
func Tagged(tag string) []int { return nil }

// InGroup needs /proc; elsewhere it finds nothing.
func InGroup(pgid int) []int { return nil }

func selfStartTime() uint64 { return uint64(time.Now().Unix()) }
