// Package sessionfiles reads the agent's session files from disk, read-only:
// listing and searching them for the session browser, the tree of one
// session, its transcript, and what to do when its folder is gone. It
// imports only the standard library, so it runs before any agent does and
// in plain unit tests.
package sessionfiles
