// Package proctree ends what an agent started when the agent ends: its tools,
// their children and the orphans a killed agent leaves behind.
//
// Every agent gets a tag (NewTag) in its environment, KNIGHTCODE_AGENT_TAG,
// which everything it starts inherits. On Linux End finds the agent's
// processes by that tag, by the agent's process group and by the sessions
// and groups the tagged processes lead (pi runs each tool in a session of its
// own), terminates them, and kills what does not go. The app may also become
// the child subreaper of what its agents start (BecomeSubreaper), so a killed
// agent's orphans are adopted by the app rather than by init, and at start it
// ends what an earlier run of the app, itself killed, left (EndOrphans).
// Other Unix systems signal the agent's process group only; on Windows the
// caller kills the agent's tree (taskkill /T) and End does nothing.
//
// It imports the standard library and golang.org/x/sys only.
package proctree
