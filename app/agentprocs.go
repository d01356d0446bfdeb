package app

import "knightcode.ai/desktop/proctree"

// adoptAgentOrphans makes the app the child subreaper of what its agents
// start, so the tools of a killed agent are the app's to end and reap, and
// ends in the background what an earlier run of the app, itself killed,
// left running. Only processes tagged by an app that no longer runs are
// touched.
//
// The goroutine is the process's, not a tab's or the window's: it ends
// what no tab owns, in a bounded time (proctree's grace), and is not
// waited for on quit, which it must not delay; what it has not ended yet
// the next start ends.
func adoptAgentOrphans() {
	_ = proctree.BecomeSubreaper()
	go proctree.EndOrphans()
}
