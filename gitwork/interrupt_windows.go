package gitwork

import "os"

// Windows has no signal git could clean up on: a kill, then.
func interrupt(p *os.Process) error { return p.Kill() }
