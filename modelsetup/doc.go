// Package modelsetup owns connecting a model to the agent without editing
// its files by hand: finding model servers on this computer (loopback only,
// and only when the user opens the screen that asks), writing a provider
// into the agent's models.json merged with what is there (comments and
// trailing commas kept, the previous file kept as a backup, a file that does
// not parse never overwritten), storing a cloud provider's API key where the
// agent reads it (auth.json, owner-only), and one small test request made
// through the agent itself.
//
// The files are those of the public agent pi (~/.pi/agent, or
// $PI_CODING_AGENT_DIR); the KnightCode reference documents no such files,
// so for a KnightCode agent the window says so (see ConfigFor).
//
// It imports the standard library and rpcconn (for the test request), never
// Fyne or the model: plain tests and -race cover it.
package modelsetup
