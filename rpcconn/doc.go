// Package rpcconn owns the connection to a KnightCode agent running in RPC mode:
// the child process and its shutdown, LF framing of stdout, typed commands,
// responses and events, correlation of responses to calls by id, the extension
// UI sub-protocol, pure assembly of streamed messages and tool runs, and
// detection of what an older agent does not support.
//
// When the agent ends, in any way, what it started ends too (package
// proctree, which finds the agent's tools by a tag in their environment).
//
// It imports only the standard library and proctree, so it can be tested and
// reused without a window.
package rpcconn
