// Package pienv owns running the public agent pi (npm package
// @mariozechner/pi-coding-agent, a protocol generation older than KnightCode)
// in end-to-end tests: finding or installing a pinned version, and giving
// each run an isolated HOME that points pi at a local model server (package
// llmserver) and keeps it off the network.
//
// Everything that does not need a test is an ordinary function returning an
// error (Locate, Prepare), so programs such as the stream recorder can use
// it too; Binary and Setup are the testing.TB wrappers.
package pienv
