package remote

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"knightcode.ai/desktop/rpcconn"
)

// Kind says what went wrong with a remote agent or a remote file.
type Kind int

const (
	// Other: ssh failed (exit code 255) in a way not listed here.
	Other Kind = iota + 1
	// HostKeyUnknown: the host's key is not in known_hosts, and BatchMode
	// cannot ask whether to trust it.
	HostKeyUnknown
	// HostKeyChanged: the host's key is not the one in known_hosts.
	HostKeyChanged
	// PasswordOnly: the host offers only passwords or keyboard-interactive
	// prompts, which BatchMode cannot answer.
	PasswordOnly
	// AuthDenied: the host takes keys, but none was accepted.
	AuthDenied
	// Refused: nothing listens on the port.
	Refused
	// Unreachable: no route, or connecting timed out.
	Unreachable
	// UnknownHost: the name does not resolve.
	UnknownHost
	// ConnectionLost: an established connection ended (the server closed
	// it, the network dropped, keepalives went unanswered).
	ConnectionLost
	// BadConfig: ssh could not use its configuration file.
	BadConfig
	// NoSSH: the ssh program is not installed.
	NoSSH
	// FolderMissing and FolderDenied: the remote folder is not there, or
	// cannot be entered.
	FolderMissing
	FolderDenied
	// AgentNotFound: no agent on the remote PATH (or not at the given
	// path); AgentNotExecutable: the file found cannot be run.
	AgentNotFound
	AgentNotExecutable
	// FileMissing and FileUnreadable: a remote file that could not be
	// read.
	FileMissing
	FileUnreadable
	// AgentFailed: the remote agent started but exited, or printed
	// something that is not the protocol, before it answered.
	AgentFailed
)

var kindNames = map[Kind]string{
	Other: "ssh failed", HostKeyUnknown: "unknown host key", HostKeyChanged: "host key changed",
	PasswordOnly: "password only", AuthDenied: "key refused", Refused: "connection refused",
	Unreachable: "host unreachable", UnknownHost: "unknown host", ConnectionLost: "connection lost",
	BadConfig: "bad ssh config", NoSSH: "no ssh", FolderMissing: "no such folder",
	FolderDenied: "folder not accessible", AgentNotFound: "agent not found",
	AgentNotExecutable: "agent not executable", FileMissing: "no such file", FileUnreadable: "file not readable",
	AgentFailed: "agent failed",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is a failure to reach the host or to do something there, in words
// that say what to do.
type Error struct {
	Kind Kind
	// Host names the host as the user gave it.
	Host string
	// Message says what happened and what to do, in one or two sentences.
	Message string
	// Stderr is the tail of what ssh (or the remote side) said: at most
	// the last five lines, without the remote scripts' own marker lines.
	Stderr string
}

func (e *Error) Error() string {
	if e.Stderr == "" {
		return e.Message
	}
	return e.Message + "\n" + e.Stderr
}

// predicate words an exit for Exit.Describe: "lost its connection to
// host …".
func (e *Error) predicate() string {
	if e.Kind == ConnectionLost {
		if last := lastLine(e.Stderr); last != "" {
			return "lost its connection to " + e.Host + " (" + last + ")"
		}
		return "lost its connection to " + e.Host
	}
	return "could not run on " + e.Host + ": " + e.Message
}

// tailLines is how many of ssh's lines an Error keeps.
const tailLines = 5

// sshExitCode is what ssh exits with on its own errors.
const sshExitCode = 255

// Classify reads a failure of an agent started with a Spec's Options (a
// *rpcconn.StartError, an *rpcconn.ExitError or *rpcconn.Exit) or of a
// remote file function (already an *Error) and says what it was. It returns
// nil for an exit that is the agent's own after it had answered (a crash:
// rpcconn's Exit says it); an agent that fails before it answers is
// AgentFailed.
func (h Host) Classify(err error) *Error {
	var re *Error
	var se *rpcconn.StartError
	var ee *rpcconn.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		return re
	case errors.As(err, &se):
		return h.classifyStart(se)
	case errors.As(err, &ee):
		return h.ClassifyExit(ee.Exit)
	}
	return nil
}

// ClassifyExit says why the ssh carrying an agent ended, when that was
// ssh's doing or the remote side's: nil for an exit the agent chose
// (its own status, passed on by ssh) or one Close asked for.
func (h Host) ClassifyExit(exit *rpcconn.Exit) *Error {
	if exit == nil || exit.Expected {
		return nil
	}
	return h.classify(exit.Code, exit.StderrTail, true)
}

func (h Host) classifyStart(se *rpcconn.StartError) *Error {
	switch se.Kind {
	case rpcconn.NotFound, rpcconn.NotExecutable:
		return &Error{Kind: NoSSH, Host: h.Name(), Message: fmt.Sprintf(
			"the ssh program (%s) cannot be run: install the OpenSSH client (on Debian or Ubuntu: apt install openssh-client)", h.Program())}
	case rpcconn.ExitedAtOnce:
		code := -1
		if se.Exit != nil {
			code = se.Exit.Code
		}
		if e := h.classify(code, se.StderrTail, false); e != nil {
			return e
		}
		if agent := ParseStarted(se.StderrTail).Agent; agent != "" {
			return &Error{Kind: AgentFailed, Host: h.Name(), Stderr: tail(sshLines(se.StderrTail)), Message: fmt.Sprintf(
				"the agent %s on %s exited before it answered (%s)", agent, h.Name(), se.Exit.Status())}
		}
		return nil
	case rpcconn.NotProtocol:
		if agent := ParseStarted(se.StderrTail).Agent; agent != "" {
			return &Error{Kind: AgentFailed, Host: h.Name(), Stderr: tail(sshLines(se.StderrTail)), Message: fmt.Sprintf(
				"%s on %s does not speak the KnightCode RPC protocol; it printed: %q", agent, h.Name(), se.Output)}
		}
	case rpcconn.NoAnswer:
		if _, ok := markerLinesHave(se.StderrTail, "agent "); !ok {
			return &Error{Kind: Unreachable, Host: h.Name(), Stderr: tail(sshLines(se.StderrTail)), Message: fmt.Sprintf(
				"%s did not answer: ssh is still connecting or logging in; check the host, the network and your ssh config", h.Name())}
		}
	}
	return nil
}

// classify reads ssh's exit code and stderr. started says whether the
// agent may have been running (an exit with the agent's own status is not
// an error then).
func (h Host) classify(code int, stderr string, started bool) *Error {
	name := h.Name()
	e := &Error{Host: name, Stderr: tail(sshLines(stderr))}
	if kind, words, ok := markerError(stderr); ok {
		e.Kind, e.Message = remoteKind(kind), name+": "+words
		switch e.Kind {
		case FolderMissing:
			e.Message += ": choose another folder, or create it there"
		case AgentNotFound:
			e.Message += ": install knightcode (or pi) there, or give the agent's path"
		}
		return e
	}
	ssh := sshLines(stderr)
	if code != sshExitCode {
		if code == 127 && !started {
			e.Kind = Other
			e.Message = fmt.Sprintf("%s could not run the remote command (exit code 127): its shell has no /bin/sh, or the login failed", name)
			return e
		}
		return nil
	}
	port := "22"
	if h.Target.Port != 0 {
		port = fmt.Sprint(h.Target.Port)
	}
	for _, p := range sshPatterns {
		if !p.re.MatchString(ssh) {
			continue
		}
		e.Kind = p.kind
		if p.kind == AuthDenied {
			if m := deniedMethods.FindStringSubmatch(ssh); m != nil && !strings.Contains(m[1], "publickey") {
				e.Kind = PasswordOnly
			}
		}
		e.Message = messageFor(e.Kind, name, port)
		if p.early && !started {
			e.Message = fmt.Sprintf("%s closed the connection before the login finished: its SSH server refused this account or is busy (its log says why)", name)
		}
		return e
	}
	if started && ParseStarted(stderr).Agent != "" {
		// The agent ran and exited 255 itself, or ssh failed in a way it
		// did not explain.
		e.Kind = ConnectionLost
		e.Message = fmt.Sprintf("the connection to %s ended (ssh exit code 255)", name)
		return e
	}
	e.Kind = Other
	e.Message = fmt.Sprintf("ssh could not reach %s (exit code 255)", name)
	return e
}

func messageFor(k Kind, name, port string) string {
	switch k {
	case HostKeyUnknown:
		return fmt.Sprintf("%s's host key is not known here yet, and this window does not accept keys by itself: connect once with ssh in a terminal to accept the host key (ssh %s), then try again", name, name)
	case HostKeyChanged:
		return fmt.Sprintf("%s's host key has changed since it was accepted: the machine may have been reinstalled, or someone is in the way. Check with its administrator, then remove the old key (ssh-keygen -R %s) and connect once in a terminal", name, name)
	case PasswordOnly:
		return fmt.Sprintf("%s asks for a password, and this window cannot answer password prompts; use a key or ssh-agent (ssh-copy-id %s sets one up)", name, name)
	case AuthDenied:
		return fmt.Sprintf("%s refused the keys ssh offered, and this window cannot answer password or passphrase prompts; use a key or ssh-agent: add your public key to ~/.ssh/authorized_keys there, or load a key with a passphrase with ssh-add", name)
	case Refused:
		return fmt.Sprintf("%s refused the connection on port %s: no SSH server listens there; check the host name and port", name, port)
	case Unreachable:
		return fmt.Sprintf("%s cannot be reached: check the network (or VPN) and the host's address", name)
	case UnknownHost:
		return fmt.Sprintf("there is no host called %s: check the name, or add a Host entry for it to your ssh config", name)
	case ConnectionLost:
		return fmt.Sprintf("the connection to %s was lost", name)
	case BadConfig:
		return "ssh could not use its configuration: fix the file it names"
	}
	return fmt.Sprintf("ssh could not reach %s", name)
}

// sshPatterns read OpenSSH's own messages (client 7.x to 9.x), in order:
// the first that matches wins.
var sshPatterns = []struct {
	re   *regexp.Regexp
	kind Kind
	// early marks words that may come before the login finished, as well
	// as later.
	early bool
}{
	{regexp.MustCompile(`REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed`), HostKeyChanged, false},
	{regexp.MustCompile(`Host key verification failed|No \S+ host key is known for|authenticity of host`), HostKeyUnknown, false},
	{regexp.MustCompile(`Permission denied \(|Too many authentication failures|No more authentication methods`), AuthDenied, false},
	{regexp.MustCompile(`Could not resolve hostname|Name or service not known|nodename nor servname|No address associated with hostname`), UnknownHost, false},
	{regexp.MustCompile(`Connection refused`), Refused, false},
	{regexp.MustCompile(`No route to host|Network is unreachable|Connection timed out|Operation timed out|Host is down|Host is unreachable`), Unreachable, false},
	{regexp.MustCompile(`closed by remote host|Broken pipe|Timeout, server .* not responding|client_loop: |Connection to .* closed|packet_write_wait`), ConnectionLost, false},
	{regexp.MustCompile(`Connection closed by|Connection reset|Disconnected from|kex_exchange_identification`), ConnectionLost, true},
	{regexp.MustCompile(`Bad configuration option|bad configuration options|Can't open user config file|Bad owner or permissions on|Unsupported option|garbage at end of line`), BadConfig, false},
}

// deniedMethods is the list in "Permission denied (publickey,password)."
var deniedMethods = regexp.MustCompile(`Permission denied \(([^)]*)\)`)

func remoteKind(kind string) Kind {
	switch kind {
	case "folder-missing":
		return FolderMissing
	case "folder-denied":
		return FolderDenied
	case "agent-not-found":
		return AgentNotFound
	case "agent-not-executable":
		return AgentNotExecutable
	case "file-missing":
		return FileMissing
	case "file-unreadable":
		return FileUnreadable
	}
	return Other
}

// markerLinesHave finds the first marker line that starts with prefix.
func markerLinesHave(stderr, prefix string) (string, bool) {
	for _, m := range markerLines(stderr) {
		if rest, ok := strings.CutPrefix(m, prefix); ok {
			return rest, true
		}
	}
	return "", false
}

func tail(s string) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	var kept []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	if len(kept) > tailLines {
		kept = kept[len(kept)-tailLines:]
	}
	return strings.Join(kept, "\n")
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
