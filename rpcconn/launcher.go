package rpcconn

// A Launcher runs the agent through another program — ssh running it on
// another machine, as package remote does — and says in words what that
// program's own failures mean.
//
// With Options.Launcher set, Start runs Command() instead of Path with
// "--mode rpc" and Args: the launcher passes those on to the agent itself.
// Everything else stays as it is: the process's stdin and stdout carry the
// protocol, its stderr is the diagnostics tail, and Close closes stdin, then
// terminates and kills the launcher's process group. Path, if set, names
// the agent in messages until Agent names it better.
//
// The methods are called on the connection's goroutines and must not block.
type Launcher interface {
	// Command is the argv to run, program first; the program is looked up
	// on PATH as Path is.
	Command() []string
	// StartFailed returns words saying why the start failed and what to
	// do, with what of the stderr tail is worth showing, for
	// StartError.Reason; or "" to keep rpcconn's own wording. err holds the
	// stderr tail and, for ExitedAtOnce, the Exit (whose Reason Exited has
	// already set).
	StartFailed(err *StartError) string
	// Exited returns words for an exit this side did not ask for, for
	// Exit.Reason (a predicate, as Exit.Describe), or "" to keep
	// Describe's. It is not asked about exits Close caused.
	Exited(exit *Exit) string
	// Agent names the agent that is running — its path, from what the
	// launcher wrote to stderr — once it has answered its first command,
	// for Conn.Path. "" means not yet: Start asks again as more stderr
	// arrives, for up to half a second, then keeps Options.Path.
	Agent(stderrTail string) string
}
