package rpcconn

import "time"

// Options say how to start the agent.
type Options struct {
	// Path is the agent binary: a path, or a name looked up on PATH.
	Path string
	// Args are extra arguments, passed after "--mode rpc".
	Args []string
	// Dir is the agent's working folder; empty means ours.
	Dir string
	// Env is extra environment (KEY=VALUE), on top of ours.
	Env []string
	// ExactEnv makes Env the agent's whole environment, for hermetic runs
	// (tests) where none of our variables — API keys, proxies — may leak.
	ExactEnv bool
	// StartTimeout bounds the wait for the agent's first answer (60 s).
	StartTimeout time.Duration
	// OnSlowStart, if set, is called once when the agent has not answered
	// within SlowStart (10 s), with the end of its stderr so far; the start
	// goes on until StartTimeout. It runs on a goroutine of the connection
	// and must not block.
	OnSlowStart func(stderrTail string)
	SlowStart   time.Duration
	// StopGrace is how long Close waits after closing stdin before SIGTERM
	// (3 s), and TermGrace how long after SIGTERM before SIGKILL (2 s).
	StopGrace, TermGrace time.Duration
	// Launcher, when set, starts the agent through another program (ssh,
	// in package remote) instead of running Path; see Launcher.
	Launcher Launcher
	// LeaveDescendants keeps the connection from ending what the agent
	// started when it ends (see proctree.End): for a launcher whose
	// descendants are not the agent's, such as ssh's ControlMaster, which
	// belongs to the user's other sessions.
	LeaveDescendants bool
}

func (o *Options) defaults() {
	if o.StartTimeout <= 0 {
		o.StartTimeout = 60 * time.Second
	}
	if o.SlowStart <= 0 {
		o.SlowStart = 10 * time.Second
	}
	if o.StopGrace <= 0 {
		o.StopGrace = 3 * time.Second
	}
	if o.TermGrace <= 0 {
		o.TermGrace = 2 * time.Second
	}
}
