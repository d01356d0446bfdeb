//go:build !windows

package app

import (
	"os"
	"syscall"
)

// openNoWait opens a file for reading without waiting: a pipe put in the
// place of a checked file would otherwise block the open until something
// writes to it. The opened file is checked again after this.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
