// Package remote runs the agent on another machine over SSH. It owns SSH
// targets ([user@]host[:port]) and the hosts of an ssh config, the argv of
// the system OpenSSH client, shell quoting of the one command a remote shell
// parses, the remote side's discovery of the agent (knightcode, then pi, on a
// login shell's PATH) and the wrapper that ties the agent's life to the
// connection, the classification of ssh's failures into messages that say
// what to do, and access to remote files (session files, tool output,
// exports) over the same ssh settings.
//
// It imports the standard library, rpcconn, sessionfiles and gitwork, and never
// Fyne: a Spec's Options start the agent through rpcconn.Start like a local
// one, and everything else is a plain function with a context. Package
// remote/sshtest runs a real sshd for its tests.
//
// # Running the agent
//
//	spec := remote.Spec{Host: remote.Host{Target: t}, Dir: "~/src/app"}
//	conn, err := rpcconn.Start(ctx, spec.Options())
//
// The ssh command is
//
//	ssh -T -e none -o BatchMode=yes -o ConnectTimeout=15 \
//	    -o ServerAliveInterval=15 -o ServerAliveCountMax=3 \
//	    -o ClearAllForwardings=yes [-F config] [-p port] [-l user] -- host \
//	    "exec /bin/sh -c '<login hop>' knightcode-remote '<agent script>' <dir> <agent> <grace> run --mode rpc <args>…"
//
// The remote account's shell parses that one string, so every word in it
// is quoted by QuoteShell. The login hop runs the agent script under the
// account's login shell (when it is a POSIX shell) so the agent sees the
// PATH and variables a terminal login would; the script cds into the folder,
// finds the agent (retrying in an interactive login shell, where nvm and
// the like put themselves), reports on stderr which one it found, and runs
// it with its stdin fed through a FIFO by a relay: when the connection's
// stdin ends — Close, or the connection dropped — the agent gets EOF, and
// if it is still running after the grace period it is terminated, then
// killed (measured: Close returns in 5 ms for an agent that exits at EOF,
// 1 s after for one that ignores EOF, 2 s for one that ignores SIGTERM too,
// with a 1 s grace). Probe runs the same script up to the start, to say
// which agent a Spec would run. See scripts.go.
//
// # Remote files
//
// Every file function is one ssh connection with the Host's settings
// running a small quoted /bin/sh script: ReadDir for a folder chooser,
// ReadFile and CopyFile for a tool's whole output and an HTML export,
// FoldersExist. The session browser reads remote sessions from local
// copies that package sessionfiles reads as it reads local ones:
// SessionRoots asks the login environment where the agent keeps them, and
// a SessionMirror lists them in one connection and fetches what is new or
// changed in another (List, Local).
//
// # Git
//
// Git is a gitwork.Runner for a folder on the host (the changes pane, the
// checkpoints): each git command is one ssh connection running a small
// /bin/sh script that cds into the folder and execs git with stdin, stdout
// and the exit code passed through; a failure before git ran (the host,
// the folder, git missing) is a GitError whose Err is an *Error. Words with
// a newline are sent escaped, since csh cannot quote one (see git.go).
// SharedConnections makes a Host whose commands share one connection
// (ControlMaster): a checkpoint of a small repository over ssh to the test
// sshd here takes about 1 s with a connection per command, 47 ms shared.
//
// # Failures
//
// A start that fails returns an rpcconn.StartError whose Error() already
// says what happened and what to do (the launcher words it, with ssh's
// stderr tail); Host.Classify turns it, or a later *rpcconn.Exit, into an
// *Error with a Kind. A dropped connection is an Exit whose Describe says
// "lost its connection to HOST (ssh's last line)". When ssh itself is
// killed (the app died), sshd's end of the connection closes and the
// wrapper ends the agent the same way (measured: within 25 ms, or after the
// grace when sshd does not signal the session first).
package remote
