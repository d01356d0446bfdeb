package rpcconn

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrUnsupported: the connected agent does not know this command.
	ErrUnsupported = errors.New("not supported by this agent")
	// ErrClosed: the connection was closed by this side.
	ErrClosed = errors.New("connection closed")
)

// StartFailure says why an agent could not be started.
type StartFailure int

const (
	// NotFound: no such binary (or not on PATH).
	NotFound StartFailure = iota + 1
	// NotExecutable: the file exists but cannot be run.
	NotExecutable
	// ExitedAtOnce: the process ended before it answered.
	ExitedAtOnce
	// NotProtocol: it printed something that is not the RPC protocol.
	NotProtocol
	// NoAnswer: it kept running but never answered the first command.
	NoAnswer
)

// StartError is a failure to start the agent, with what a person needs to
// fix it.
type StartError struct {
	Kind StartFailure
	Path string
	// Err is the underlying error, if any.
	Err error
	// Exit is set for ExitedAtOnce.
	Exit *Exit
	// Output is the first non-protocol stdout, for NotProtocol.
	Output string
	// StderrTail is the end of what the process wrote to stderr.
	StderrTail string
	// Reason, when set, is what a Launcher said about the failure, with
	// as much of the stderr tail as it found worth showing (the launcher's
	// program writes its own lines there); it is all Error says.
	Reason string
}

func (e *StartError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	var b strings.Builder
	switch e.Kind {
	case NotFound:
		fmt.Fprintf(&b, "agent not found: %s", e.Path)
	case NotExecutable:
		fmt.Fprintf(&b, "agent is not executable: %s", e.Path)
	case ExitedAtOnce:
		fmt.Fprintf(&b, "agent exited at once (%s): %s", e.Exit.Status(), e.Path)
	case NotProtocol:
		fmt.Fprintf(&b, "%s does not speak the KnightCode RPC protocol; it printed: %q", e.Path, e.Output)
	case NoAnswer:
		fmt.Fprintf(&b, "agent did not answer: %s", e.Path)
	default:
		fmt.Fprintf(&b, "agent failed to start: %s", e.Path)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if tail := lastLines(e.StderrTail, 5); tail != "" {
		fmt.Fprintf(&b, "\n%s", tail)
	}
	return b.String()
}

func (e *StartError) Unwrap() error { return e.Err }

// CommandError is a command the agent answered with success:false.
type CommandError struct {
	Command string
	Message string
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("%s failed: %s", e.Command, e.Message)
}

// Is makes an "Unknown command" answer match ErrUnsupported.
func (e *CommandError) Is(target error) bool {
	return target == ErrUnsupported && isUnknownCommand(e.Message)
}

func isUnknownCommand(msg string) bool {
	return strings.HasPrefix(msg, "Unknown command")
}

// ExitError fails calls still waiting when the agent exits.
type ExitError struct {
	Exit *Exit
}

func (e *ExitError) Error() string {
	msg := "agent exited (" + e.Exit.Status() + ")"
	if tail := lastLines(e.Exit.StderrTail, 3); tail != "" {
		msg += ": " + tail
	}
	return msg
}
