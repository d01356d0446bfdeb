package remote_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn"
)

func TestPromptStreamsThroughSSH(t *testing.T) {
	srv := sshtest.Start(t, sshtest.Options{})
	agent := fakeAgent(t, srv, "knightcode")
	began := time.Now()
	c := startSpec(t, remote.Spec{Host: srv.Host(), Dir: "~"})
	t.Logf("the agent answered get_state over ssh after %v", time.Since(began).Round(time.Millisecond))
	if c.Path() != agent {
		t.Errorf("Path %q, want the remote agent %q", c.Path(), agent)
	}
	started := remote.ParseStarted(c.StderrTail())
	if started.How != "found knightcode on a login shell's PATH" || started.PID == 0 || !started.Watchdog {
		t.Errorf("the remote side said %+v", started)
	}
	if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: "[[long:40]]"}); err != nil {
		t.Fatal(err)
	}
	r := collectRun(t, c)
	if len(r.deltas) != 40 || r.joined() != r.text || r.text == "" {
		t.Fatalf("%d deltas making %q; the message says %q", len(r.deltas), r.joined(), r.text)
	}
}

func TestCloseLeavesNoAgent(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	fakeAgent(t, srv, "knightcode")
	c := startSpec(t, remote.Spec{Host: srv.Host(), Args: []string{"--name", "close-me"}})
	started := remote.ParseStarted(c.StderrTail())
	if !sshtest.Alive(started.PID) {
		t.Fatalf("the remote agent's pid %d (from %+v) is not running", started.PID, started)
	}
	began := time.Now()
	c.Close()
	t.Logf("Close took %v (the agent ends at EOF)", time.Since(began).Round(time.Millisecond))
	// Code 0 says the agent ended by itself at the end of its input, with
	// no clock involved: had the remote wrapper terminated it after the
	// grace period, the code would be 143 (128 + SIGTERM); had rpcconn
	// had to end ssh, ssh's 255 or a signal.
	if exit := c.ExitInfo(); !exit.Expected || exit.Code != 0 || exit.Signal != "" {
		t.Errorf("exit after Close: %+v", exit)
	}
	// The agent, the wrapper shell running its last lines (kill, rm,
	// exit) and the connection's sshd go a while after Close returns.
	waitGone(t, "the remote agent and its wrapper, after Close", []int{started.PID}, "close-me")
	testsupport.EventuallyGone(t, "nothing under sshd after Close", func() string {
		var left []string
		for _, p := range sshtest.Descendants(srv.PID()) {
			if info, ok := sshtest.ReadProc(p); ok && info.Alive() {
				left = append(left, fmt.Sprintf("%+v", info))
			}
		}
		return strings.Join(left, "; ")
	})
}

// An agent that ignores the end of its input — and SIGTERM — is still
// ended: the remote wrapper sees the connection's input end, waits the
// grace period, terminates it, and a second later kills it.
func TestStdinIgnoringAgentEndedOnClose(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flags []string
		// code is the wrapper's exit code, which ssh passes on: 128 and
		// the signal that ended the agent.
		code int
	}{
		{[]string{"--fake-ignore-stdin-close"}, 128 + int(syscall.SIGTERM)},
		{[]string{"--fake-ignore-stdin-close", "--fake-ignore-sigterm"}, 128 + int(syscall.SIGKILL)},
	} {
		t.Run(strings.Join(tc.flags, " "), func(t *testing.T) {
			t.Parallel()
			srv := sshtest.Start(t, sshtest.Options{})
			fakeAgent(t, srv, "knightcode", tc.flags...)
			spec := remote.Spec{Host: srv.Host(), Grace: time.Second}
			opts := spec.Options()
			// rpcconn terminates ssh only after StopGrace. A long one
			// leaves the remote side all the time a busy machine needs to
			// end the agent; if Close lasts that long, it did not.
			opts.StopGrace = testsupport.GoneWait
			c := startOptions(t, opts)
			started := remote.ParseStarted(c.StderrTail())
			began := time.Now()
			c.Close()
			took := time.Since(began)
			waitGone(t, "the agent, after Close", []int{started.PID})
			exit := c.ExitInfo()
			t.Logf("Close took %v; ssh %s", took.Round(time.Millisecond), exit.Status())
			if took >= opts.StopGrace {
				t.Errorf("Close took %v: the remote side did not end the agent, rpcconn had to terminate ssh", took)
			}
			if !exit.Expected || exit.Code != tc.code || exit.Signal != "" {
				t.Errorf("exit %+v, want code %d: the remote wrapper ending the agent", exit, tc.code)
			}
		})
	}
}

// sshd's side of the connection going away (the server restarted, an
// administrator ended the session) is an exit with ssh's message; the
// agent there ends, and a new connection resumes the session file.
func TestSessionKilled(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	fakeAgent(t, srv, "knightcode")
	sessions := srv.Home + "/sessions"
	spec := remote.Spec{Host: srv.Host(), Args: []string{"--session-dir", sessions}}
	c := startSpec(t, spec)
	started := remote.ParseStarted(c.StderrTail())
	if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: "remember me"}); err != nil {
		t.Fatal(err)
	}
	collectRun(t, c)
	state, err := c.GetState(testContext(t))
	if err != nil || state.SessionFile == "" {
		t.Fatalf("get_state: %+v, %v", state, err)
	}

	if n := srv.KillSessions(9); n == 0 {
		t.Fatal("no sshd session to kill")
	}
	exit := waitExit(t, c)
	t.Logf("exit: %s; %s", exit.Status(), exit.Describe())
	if exit.Expected || !strings.HasPrefix(exit.Describe(), "lost its connection to sshtest") {
		t.Fatalf("exit %+v described %q", exit, exit.Describe())
	}
	e := spec.Host.ClassifyExit(exit)
	if e == nil || e.Kind != remote.ConnectionLost || !strings.Contains(e.Error(), "closed") {
		t.Fatalf("classified as %+v", e)
	}
	waitGone(t, "the remote agent, after its connection was killed", []int{started.PID})

	// Restart: a new connection, resuming the session file.
	spec.Args = append(spec.Args, "--session", state.SessionFile)
	c2 := startSpec(t, spec)
	msgs, err := c2.GetMessages(testContext(t))
	if err != nil || len(msgs) < 2 || msgs[0].Content.Text() != "remember me" {
		t.Fatalf("after reconnecting: %d messages, %v", len(msgs), err)
	}
}

func TestUnknownHostKey(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{UnknownHostKey: true})
	fakeAgent(t, srv, "knightcode")
	e, err := startFails(t, remote.Spec{Host: srv.Host()})
	if e == nil || e.Kind != remote.HostKeyUnknown {
		t.Fatalf("classified as %+v", e)
	}
	msg := err.Error()
	if !strings.Contains(msg, "connect once with ssh in a terminal to accept the host key") || !strings.Contains(msg, "Host key verification failed") {
		t.Fatalf("message %q: want what to do and ssh's words", msg)
	}
}

func TestPasswordOnlyHost(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{PasswordOnly: true})
	e, err := startFails(t, remote.Spec{Host: srv.Host()})
	if e == nil || e.Kind != remote.PasswordOnly {
		t.Fatalf("classified as %+v", e)
	}
	if msg := err.Error(); !strings.Contains(msg, "this window cannot answer password prompts; use a key or ssh-agent") || !strings.Contains(msg, "Permission denied") {
		t.Fatalf("message %q", msg)
	}
}

func TestRefusedAndUnknownHosts(t *testing.T) {
	t.Parallel()
	_, h := downHost(t)
	e, err := startFails(t, remote.Spec{Host: h})
	if e == nil || e.Kind != remote.Refused || !strings.Contains(err.Error(), "Connection refused") {
		t.Fatalf("refused port: %+v", e)
	}

	h.Target = remote.Target{Host: "no-such-host.invalid"}
	e, err = startFails(t, remote.Spec{Host: h})
	if e == nil || e.Kind != remote.UnknownHost || !strings.Contains(err.Error(), "no-such-host.invalid") {
		t.Fatalf("unknown host: %+v", e)
	}
}

// What a remote shell would read as syntax reaches the agent as it was
// given: the folder it runs in, its arguments.
func TestQuotingThroughTheRemoteShell(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	fakeAgent(t, srv, "knightcode")
	names := []string{
		"with space",
		`it's "quoted"`,
		`$HOME;$(touch pwned)*`,
		"line\nbreak",
		`back\slash ~ #hash`,
		"-dash",
	}
	for _, name := range names {
		t.Run(strings.ReplaceAll(name, "\n", `\n`), func(t *testing.T) {
			dir := srv.Home + "/" + name
			mkdir(t, dir)
			// The folder relative to the home folder, the name as an
			// argument.
			c := startSpec(t, remote.Spec{Host: srv.Host(), Dir: name, Args: []string{"--name", name}})
			if got := c.InitialState().SessionName; got != name {
				t.Errorf("the agent got the name %q, want %q", got, name)
			}
			res, err := c.Bash(testContext(t), "pwd", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(res.Output, "\n"); got != dir {
				t.Errorf("the agent runs in %q, want %q", got, dir)
			}
			c.Close()
			// The folder as an absolute path.
			found, err := remote.Spec{Host: srv.Host(), Dir: dir}.Probe(testContext(t))
			if err != nil || found.Dir != dir {
				t.Errorf("Probe(%q) = %+v, %v", dir, found, err)
			}
		})
	}
	if p, ok := findFile(srv, "pwned"); ok {
		t.Fatalf("a folder name ran a command on the remote side: %s", p)
	}

	missing := "no such\nfolder $x"
	e, err := startFails(t, remote.Spec{Host: srv.Host(), Dir: missing})
	// A newline in a message is shown as \n.
	if e == nil || e.Kind != remote.FolderMissing || !strings.Contains(err.Error(), srv.Home+`/no such\nfolder $x`) {
		t.Fatalf("missing folder: %+v / %v", e, err)
	}
}

func TestDiscovery(t *testing.T) {
	t.Parallel()
	t.Run("pi when there is no knightcode", func(t *testing.T) {
		srv := sshtest.Start(t, sshtest.Options{})
		pi := fakeAgent(t, srv, "pi")
		found, err := remote.Spec{Host: srv.Host()}.Probe(testContext(t))
		if err != nil || found.Agent != pi || found.How != "found pi on a login shell's PATH" || found.Dir != srv.Home {
			t.Fatalf("Probe = %+v, %v", found, err)
		}
		c := startSpec(t, remote.Spec{Host: srv.Host()})
		if c.Path() != pi || remote.ParseStarted(c.StderrTail()).How != "found pi on a login shell's PATH" {
			t.Fatalf("started %q: %s", c.Path(), c.StderrTail())
		}
	})
	t.Run("knightcode first", func(t *testing.T) {
		srv := sshtest.Start(t, sshtest.Options{})
		fakeAgent(t, srv, "pi")
		kc := fakeAgent(t, srv, "knightcode")
		found, err := remote.Spec{Host: srv.Host()}.Probe(testContext(t))
		if err != nil || found.Agent != kc {
			t.Fatalf("Probe = %+v, %v", found, err)
		}
	})
	t.Run("only in an interactive shell", func(t *testing.T) {
		// As nvm does: .bashrc-style setup that only interactive shells run.
		srv := sshtest.Start(t, sshtest.Options{Profile: `case $- in *i*) PATH="$HOME/nvm/bin:$PATH" ;; esac`})
		mkdir(t, srv.Home+"/nvm/bin")
		exe := fakeAgent(t, srv, "knightcode")
		mv(t, exe, srv.Home+"/nvm/bin/knightcode")
		c := startSpec(t, remote.Spec{Host: srv.Host()})
		if got := remote.ParseStarted(c.StderrTail()).How; got != "found knightcode on an interactive login shell's PATH" {
			t.Fatalf("How = %q\n%s", got, c.StderrTail())
		}
	})
	t.Run("given path", func(t *testing.T) {
		srv := sshtest.Start(t, sshtest.Options{})
		mkdir(t, srv.Home+"/my tools")
		exe := fakeAgent(t, srv, "agent")
		mv(t, exe, srv.Home+"/my tools/agent")
		c := startSpec(t, remote.Spec{Host: srv.Host(), Agent: "~/my tools/agent"})
		if c.Path() != srv.Home+"/my tools/agent" {
			t.Fatalf("Path %q\n%s", c.Path(), c.StderrTail())
		}
	})
	t.Run("none", func(t *testing.T) {
		srv := sshtest.Start(t, sshtest.Options{})
		_, err := remote.Spec{Host: srv.Host()}.Probe(testContext(t))
		e := srv.Host().Classify(err)
		if e == nil || e.Kind != remote.AgentNotFound || !strings.Contains(e.Message, "neither knightcode nor pi") {
			t.Fatalf("Probe: %v", err)
		}
		e, err = startFails(t, remote.Spec{Host: srv.Host(), Agent: "nope"})
		if e == nil || e.Kind != remote.AgentNotFound || !strings.Contains(err.Error(), "nope is not there") {
			t.Fatalf("Start: %v", err)
		}
	})
}

// Every word of the agent's command line, whatever a shell would make of
// it, reaches the remote agent as it was given, through the account's
// shell, the login shell and /bin/sh.
func TestArgumentsReachTheRemoteAgent(t *testing.T) {
	t.Parallel()
	words := []string{
		"", "plain", "with space", "  lead and trail  ", "it's", `say "hi"`, `back\slash`, `'\''`,
		"$HOME", "${PATH}", "$(touch pwned)", "`touch pwned`", "a;b", "a && b", "a|b", "*", "?", "[ab]",
		"~", "~/x", "#not a comment", "line\nbreak", "\n", "tab\there", "!bang", "-n", "=x", "%s", "é 漢字",
	}
	srv := sshtest.Start(t, sshtest.Options{})
	// An "agent" that writes its arguments down, NUL-terminated, and fails.
	srv.Program("knightcode", `printf '%s\0' "$@" >"$HOME/args"; exit 9`)
	e, err := startFails(t, remote.Spec{Host: srv.Host(), Args: words})
	if e == nil || e.Kind != remote.AgentFailed || !strings.Contains(err.Error(), "bin/knightcode on sshtest exited before it answered (exit code 9)") {
		t.Errorf("an agent that exits at once: %+v / %v", e, err)
	}
	data, err := os.ReadFile(srv.Home + "/args")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	want := append([]string{"--mode", "rpc"}, words...)
	if !slices.Equal(got, want) {
		for i := range max(len(got), len(want)) {
			if i >= len(got) || i >= len(want) || got[i] != want[i] {
				t.Fatalf("word %d: the agent got %q, want %q (all: %q)", i, got[min(i, len(got)-1)], want[min(i, len(want)-1)], got)
			}
		}
	}
	if p, ok := findFile(srv, "pwned"); ok {
		t.Fatalf("an argument ran a command on the remote side: %s", p)
	}
}

// The app dying (ssh killed without a Close) still ends the remote agent:
// sshd sees the connection go, the wrapper's relay sees the end of input.
func TestSSHKilledLocally(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	fakeAgent(t, srv, "knightcode", "--fake-ignore-stdin-close")
	c := startSpec(t, remote.Spec{Host: srv.Host(), Grace: time.Second})
	started := remote.ParseStarted(c.StderrTail())
	p, err := os.FindProcess(c.PID())
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	p.Kill()
	exit := waitExit(t, c)
	waitGone(t, "the remote agent, after its ssh was killed", []int{started.PID})
	t.Logf("ssh %s; the remote agent was gone %v later", exit.Describe(), time.Since(killed).Round(time.Millisecond))
}
