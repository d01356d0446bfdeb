// Package e2e holds the end-to-end tests of package rpcconn against the real
// public agent, pi (see rpctest/pienv), answering from the scripted model
// server in rpctest/llmserver. It has no code of its own: everything is in
// its tests, which drive the agent only through rpcconn so that they prove
// what the desktop app will see rather than what a fake agent was written to
// say.
//
// The agent is installed from npm on first use. When npm cannot be reached
// the suite fails with pienv's explanation; it never skips, because a suite
// that quietly skips proves nothing.
package e2e
