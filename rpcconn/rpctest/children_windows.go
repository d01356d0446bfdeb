package rpctest

import "os/exec"

// ownSession does nothing on Windows, which has no sessions or groups:
// there [[child]] modes differ by holding alone.
func ownSession(cmd *exec.Cmd) {}
