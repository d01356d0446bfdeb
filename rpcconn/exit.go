package rpcconn

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	// Reason, when set, is what a Launcher said about an exit nobody
	// asked for (for ssh: "lost the connection to host …"); Describe
	// returns it.
	Reason string
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
	name   string // as Go's syscall.Signal prints it
	signal string
	code   int // 128 + the signal's number
	what   string
	why    string
}{
	{"killed", "SIGKILL", 137, "was killed", "out of memory, or another program stopped it"},
	{"terminated", "SIGTERM", 143, "was terminated", "by another program or a shutdown"},
	{"interrupt", "SIGINT", 130, "was interrupted", ""},
	{"hangup", "SIGHUP", 129, "hung up", "its terminal or login session closed"},
	{"segmentation fault", "SIGSEGV", 139, "crashed", "a segmentation fault"},
	{"aborted", "SIGABRT", 134, "aborted", ""},
}

// Describe says how the process ended, as a predicate for its name:
// "was killed (SIGKILL, exit code 137): out of memory, or another program
// stopped it", "exited unexpectedly (exit code 3)", "ended the session by
// itself".
func (e *Exit) Describe() string {
	if e == nil {
		return "is still running"
	}
	if e.Reason != "" {
		return e.Reason
	}
	for _, m := range signalMeanings {
		var how string
		switch {
		case e.Signal == m.name:
			how = m.signal
		case e.Signal == "" && e.Err == nil && e.Code == m.code:
			how = fmt.Sprintf("%s, exit code %d", m.signal, e.Code)
		default:
			continue
		}
		s := m.what + " (" + how + ")"
		switch {
		case m.why == "":
		case strings.HasPrefix(m.why, "by "):
			s += " " + m.why
		default:
			s += ": " + m.why
		}
		return s
	}
	switch {
	case e.EndedByItself():
		return "ended the session by itself"
	case e.Expected:
		return "stopped (" + e.Status() + ")"
	}
	return "exited unexpectedly (" + e.Status() + ")"
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
