//go:build !unix && !windows

package filelock

import "os"

// tryLock: this system has no file lock the index can use; opens are not
// kept apart between processes here.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) {}
