// Package pienv owns running the public agent pi in end-to-end tests: its
// two pinned releases (0.73.1, npm @mariozechner/pi-coding-agent, a protocol
// generation older than KnightCode; and 1.6.0, npm
// @earendil-works/pi-coding-agent, the one the app installs for its users,
// with npm's Node 22 where the machine's is older), which one a run uses
// ($KNIGHTCODE_PI_VERSION), finding or installing it, and giving each run an
// isolated HOME that points pi at a local model server (package llmserver)
// and keeps it off the network.
//
// Everything that does not need a test is an ordinary function returning an
// error (Locate, Prepare), so programs such as the stream recorder can use
// it too; Binary and Setup are the testing.TB wrappers.
package pienv
