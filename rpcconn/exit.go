package rpcconn

import (
	"fmt"
	"os"
	"os/exec"
)

// TypeExit and TypeProtocolError name the connection's own events.
const (
	TypeExit          = "rpcconn.exit"
	TypeProtocolError = "rpcconn.protocol_error"
)

// Exit is the last event of every connection: the agent process ended.
type Exit struct {
	// Code is the exit code, or -1 when a signal ended the process.
	Code int
	// Signal names the signal that ended it, if any.
	Signal string
	// Expected is true when this side asked the agent to stop.
	Expected bool
	// StderrTail is the end of what the agent wrote to stderr.
	StderrTail string
	// Err is set when waiting for the process failed for another reason.
	Err error
}

// EventType implements Event.
func (*Exit) EventType() string { return TypeExit }

// Status describes how the process ended, e.g. "exit code 3" or "signal killed".
func (e *Exit) Status() string {
	switch {
	case e == nil:
		return "still running"
	case e.Signal != "":
		return "signal " + e.Signal
	case e.Err != nil && e.Code < 0:
		return e.Err.Error()
	default:
		return fmt.Sprintf("exit code %d", e.Code)
	}
}

// EndedByItself reports an agent that exited with code 0 without being
// asked: it ended the session on its own, as an extension can ask it to.
// That is not a crash.
func (e *Exit) EndedByItself() bool {
	return e != nil && !e.Expected && e.Code == 0 && e.Signal == "" && e.Err == nil
}

// signalMeanings say in words what the usual ways to be stopped mean. A
// shell or wrapper that relays a signal exits with 128 + its number.
var signalMeanings = []struct {
	name string // as Go's syscall.Signal prints it
	code int    // 128 + the signal's number
	text string
}{
	{"killed", 137, "killed (SIGKILL): the system may have run out of memory, or another program ended it"},
	{"terminated", 143, "terminated (SIGTERM) by another program or a system shutdown"},
	{"interrupt", 130, "interrupted (SIGINT)"},
	{"hangup", 129, "hung up (SIGHUP): the terminal or login session it belonged to closed"},
	{"segmentation fault", 139, "crashed with a segmentation fault (SIGSEGV)"},
	{"aborted", 134, "aborted (SIGABRT)"},
}

// Explain says how the process ended for a person: "exit code 3",
// "exit code 137 — killed (SIGKILL): …", "signal terminated — terminated
// (SIGTERM) by …".
func (e *Exit) Explain() string {
	status := e.Status()
	if e == nil {
		return status
	}
	for _, m := range signalMeanings {
		if e.Signal == m.name || (e.Signal == "" && e.Err == nil && e.Code == m.code) {
			return status + " — " + m.text
		}
	}
	if e.EndedByItself() {
		return status + " — it ended by itself"
	}
	return status
}

func exitFromWait(state *os.ProcessState, err error) *Exit {
	e := &Exit{Code: -1}
	if state != nil {
		e.Code = state.ExitCode()
		e.Signal = signalName(state)
	}
	if err != nil {
		if _, isExit := err.(*exec.ExitError); !isExit {
			e.Err = err
		}
	}
	return e
}

// ProtocolError is a stdout record that could not be understood, or a
// response that matched no waiting call. The stream goes on after it.
type ProtocolError struct {
	// Line is the start of the offending record.
	Line string
	Err  error
	// Response is set for an unmatched response.
	Response *Response
}

// EventType implements Event.
func (*ProtocolError) EventType() string { return TypeProtocolError }

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("protocol error: %v: %q", e.Err, e.Line)
}

// excerpt shortens a record for messages.
func excerpt(line []byte) string {
	const max = 200
	if len(line) <= max {
		return string(line)
	}
	return string(line[:max]) + fmt.Sprintf("… (%d bytes)", len(line))
}
