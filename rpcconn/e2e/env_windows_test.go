package e2e

import (
	"os"
)

// processGone reports whether pid has ended: FindProcess opens a handle,
// which fails once the process is gone.
func processGone(pid int) (bool, error) {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true, nil
	}
	p.Release()
	return false, nil
}
