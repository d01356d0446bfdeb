//go:build !windows

package e2e

import (
	"errors"
	"syscall"
)

// processGone reports whether pid and every process of its group (the tools
// it started) have ended; rpcconn makes the agent a group leader.
func processGone(pid int) (bool, error) {
	for _, target := range []int{pid, -pid} {
		err := syscall.Kill(target, 0)
		switch {
		case errors.Is(err, syscall.ESRCH):
		case err == nil || errors.Is(err, syscall.EPERM):
			return false, nil
		default:
			return false, err
		}
	}
	return true, nil
}
