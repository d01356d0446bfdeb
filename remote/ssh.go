package remote

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"time"
)

// Host is how to reach a machine with the system's OpenSSH client. The
// user's own configuration does the rest: keys, ssh-agent, ProxyJump, the
// known hosts.
type Host struct {
	Target Target
	// ConfigFile is passed to ssh as -F; "" means ssh's own choice
	// (~/.ssh/config of the account, whatever HOME says).
	ConfigFile string
	// SSH is the ssh program; "" means ssh on PATH.
	SSH string
	// ConnectTimeout bounds connecting (15 s). AliveInterval is how often
	// a quiet connection is probed (15 s); three probes unanswered end it,
	// so a dropped link shows within about 45 s.
	ConnectTimeout, AliveInterval time.Duration
	// Options are more -o options, such as "Compression=yes", before the
	// ones Host sets.
	Options []string
}

const (
	defaultConnectTimeout = 15 * time.Second
	defaultAliveInterval  = 15 * time.Second
)

// Program is the ssh program to run.
func (h Host) Program() string {
	if h.SSH != "" {
		return h.SSH
	}
	return "ssh"
}

// Name is how messages name the host.
func (h Host) Name() string { return h.Target.String() }

// Argv is the whole ssh command line that runs remoteCommand, a command
// line for the remote account's shell (quote its words with QuoteShell).
// Nothing in it can stop at a prompt: BatchMode refuses to ask for a
// password, a passphrase or about an unknown host key. -T asks for no
// terminal, so stdin and stdout carry bytes unchanged, and stderr stays
// apart from stdout; -e none turns off the ~ escapes.
func (h Host) Argv(remoteCommand string) ([]string, error) {
	// A Target not made by ParseTarget (a Host literal, a saved setting)
	// is checked here too: its words end up on ssh's command line.
	if err := h.Target.check(); err != nil {
		return nil, &Error{Kind: Other, Host: h.Name(), Message: fmt.Sprintf("%q is not a usable ssh target: %v", h.Target.String(), err)}
	}
	connect, alive := h.ConnectTimeout, h.AliveInterval
	if connect <= 0 {
		connect = defaultConnectTimeout
	}
	if alive <= 0 {
		alive = defaultAliveInterval
	}
	argv := []string{h.Program(), "-T", "-e", "none"}
	for _, o := range h.Options {
		argv = append(argv, "-o", o)
	}
	argv = append(argv,
		"-o", "BatchMode=yes",
		"-o", "ConnectTimeout="+seconds(connect),
		"-o", "ServerAliveInterval="+seconds(alive),
		"-o", "ServerAliveCountMax=3",
		// Forwardings in the config for this host would be set up for
		// every connection, and one already in use elsewhere fails.
		"-o", "ClearAllForwardings=yes")
	if h.ConfigFile != "" {
		argv = append(argv, "-F", h.ConfigFile)
	}
	if h.Target.Port != 0 {
		argv = append(argv, "-p", strconv.Itoa(h.Target.Port))
	}
	if h.Target.User != "" {
		argv = append(argv, "-l", h.Target.User)
	}
	return append(argv, "--", h.Target.Host, remoteCommand), nil
}

func seconds(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	return strconv.Itoa(max(s, 1))
}

// command is ssh running remoteCommand; cancelling ctx kills ssh.
func (h Host) command(ctx context.Context, remoteCommand string) *exec.Cmd {
	argv, err := h.Argv(remoteCommand)
	if err != nil {
		cmd := exec.CommandContext(ctx, h.Program())
		cmd.Err = err // Start fails with it; nothing runs
		return cmd
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = 2 * time.Second
	return cmd
}
