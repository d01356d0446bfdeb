// Package sessionfiles reads the agent's session files from disk, read-only:
// listing and searching them for the session browser, the tree of one
// session, its transcript, and what to do when its folder is gone. It
// imports the standard library and rpcconn (for the message types a
// transcript is made of) and nothing of Fyne, so it works before any agent
// runs and plain unit tests cover it.
package sessionfiles
