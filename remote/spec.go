package remote

import (
	"bytes"
	"context"
	"strings"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// Spec says how to run the agent on a Host.
type Spec struct {
	Host
	// Dir is the remote working folder: absolute, relative to the home
	// folder, "~" or "~/…"; "" is the home folder.
	Dir string
	// Agent is the remote agent: a name looked up on the remote PATH or a
	// path ("~/…" allowed); "" looks for knightcode, then pi.
	Agent string
	// Args are the agent's arguments after "--mode rpc".
	Args []string
	// Grace is how long the remote side lets an agent run after the
	// connection's input ended before it terminates it (2 s; a second
	// later it kills it). The local side waits longer (StopGrace) before
	// it gives up on ssh.
	Grace time.Duration
}

const defaultGrace = 2 * time.Second

func (s Spec) graceSeconds() int {
	g := s.Grace
	if g <= 0 {
		g = defaultGrace
	}
	return int((g + time.Second - 1) / time.Second)
}

// RemoteCommand is the command line the remote account's shell runs.
func (s Spec) RemoteCommand() string {
	argv := append([]string{"--mode", "rpc"}, s.Args...)
	return agentCommand(s.Dir, s.Agent, s.graceSeconds(), "run", argv)
}

// Argv is the ssh command line that starts the agent; an error for a
// target that fails ParseTarget's checks.
func (s Spec) Argv() ([]string, error) { return s.Host.Argv(s.RemoteCommand()) }

// Options are rpcconn.Options that start the agent through ssh; set Env,
// StartTimeout, OnSlowStart and the like on them as for a local agent
// (Env and Dir apply to ssh). Path is the Agent, or empty until the remote
// side says which agent it found (Conn.Path then has it). StopGrace leaves
// the remote side time to end the agent itself before ssh is terminated.
func (s Spec) Options() rpcconn.Options {
	return rpcconn.Options{
		Path:      s.Agent,
		Launcher:  &launcher{spec: s},
		StopGrace: time.Duration(s.graceSeconds())*time.Second + 3*time.Second,
		TermGrace: 2 * time.Second,
		// The local process is ssh: what it leaves behind, a ControlMaster,
		// is the user's, shared with their other sessions. The remote
		// side ends the agent's tools (agentCommand's grace).
		LeaveDescendants: true,
	}
}

// launcher is the rpcconn.Launcher of a Spec.
type launcher struct{ spec Spec }

// Command is empty for a target that fails its checks: Start then fails
// without running anything.
func (l *launcher) Command() []string {
	argv, err := l.spec.Argv()
	if err != nil {
		return nil
	}
	return argv
}

func (l *launcher) StartFailed(se *rpcconn.StartError) string {
	if e := l.spec.Host.classifyStart(se); e != nil {
		return e.Error()
	}
	return ""
}

func (l *launcher) Exited(exit *rpcconn.Exit) string {
	if e := l.spec.Host.ClassifyExit(exit); e != nil {
		return e.predicate()
	}
	return ""
}

// Agent waits for the whole report: the "started" line comes last.
func (l *launcher) Agent(stderrTail string) string {
	if st := ParseStarted(stderrTail); st.PID != 0 {
		return st.Agent
	}
	return ""
}

// Found is what the remote side found for a Spec, before anything started.
type Found struct {
	// Agent is the agent's path on the remote machine, How how it was
	// found ("found pi on a login shell's PATH").
	Agent, How string
	// Dir is the folder as an absolute path, symlinks resolved: what the
	// agent records as its working folder in its session files.
	Dir string
}

// Help finds the agent as its start would, in the folder, and returns
// what its --help prints: what the app learns an agent's options from
// (agentfiles.SupportsApprove), on the host as here.
func (s Spec) Help(ctx context.Context) (string, error) {
	var out bytes.Buffer
	if _, err := s.Host.runStderr(ctx, agentCommand(s.Dir, s.Agent, s.graceSeconds(), "help", nil), &out); err != nil {
		return "", err
	}
	return out.String(), nil
}

// Probe finds the agent and enters the folder as the agent's start would,
// through the same login shell, and stops there: for a chooser to say which
// agent it will run, or that the folder is missing, before a tab opens. A
// failure is an *Error.
func (s Spec) Probe(ctx context.Context) (Found, error) {
	var out bytes.Buffer
	stderr, err := s.Host.runStderr(ctx, agentCommand(s.Dir, s.Agent, s.graceSeconds(), "probe", nil), &out)
	if err != nil {
		return Found{}, err
	}
	st := ParseStarted(stderr)
	dir, _, _ := strings.Cut(out.String(), "\x00")
	return Found{Agent: st.Agent, How: st.How, Dir: dir}, nil
}
