package remote_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

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
	took := time.Since(began)
	if exit := c.ExitInfo(); !exit.Expected || exit.Code != 0 {
		t.Errorf("exit after Close: %+v", exit)
	}
	if !sshtest.WaitGone(started.PID, 5*time.Second) {
		t.Fatalf("the remote agent %d outlived Close", started.PID)
	}
	if left := sshtest.ProcessesWith("close-me"); len(left) > 0 {
		t.Fatalf("processes left on the remote side: %+v", left)
	}
	if left := sshtest.Descendants(srv.PID()); len(left) > 0 {
		// The connection's sshd may take a moment to go.
		time.Sleep(500 * time.Millisecond)
		for _, p := range sshtest.Descendants(srv.PID()) {
			if info, ok := sshtest.ReadProc(p); ok && info.Alive() {
				t.Errorf("still under sshd after Close: %+v", info)
			}
		}
	}
	t.Logf("Close took %v (the agent ends at EOF)", took.Round(time.Millisecond))
	if took > 2*time.Second {
		t.Errorf("Close took %v: a well-behaved agent should end at once", took)
	}
}

// An agent that ignores the end of its input — and SIGTERM — is still
// ended: the remote wrapper sees the connection's input end, waits the
// grace period, terminates it, and a second later kills it.
func TestStdinIgnoringAgentEndedOnClose(t *testing.T) {
	t.Parallel()
	for _, flags := range [][]string{
		{"--fake-ignore-stdin-close"},
		{"--fake-ignore-stdin-close", "--fake-ignore-sigterm"},
	} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			t.Parallel()
			srv := sshtest.Start(t, sshtest.Options{})
			fakeAgent(t, srv, "knightcode", flags...)
			spec := remote.Spec{Host: srv.Host(), Grace: time.Second}
			c := startSpec(t, spec)
			started := remote.ParseStarted(c.StderrTail())
			began := time.Now()
			c.Close()
			took := time.Since(began)
			if !sshtest.WaitGone(started.PID, 5*time.Second) {
				t.Fatalf("the agent %d outlived Close by 5 s", started.PID)
			}
			exit := c.ExitInfo()
			t.Logf("Close took %v; ssh %s", took.Round(time.Millisecond), exit.Status())
			// The remote side ends it (grace 1 s, then TERM, then KILL a
			// second later), so ssh exits by itself before rpcconn's
			// StopGrace would terminate it.
			if took >= spec.Options().StopGrace {
				t.Errorf("Close took %v: rpcconn had to terminate ssh", took)
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
	if !sshtest.WaitGone(started.PID, 5*time.Second) {
		t.Fatalf("the remote agent %d outlived its connection", started.PID)
	}

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
	e, err := startFails(t, remote.Spec{Host: srv.Host()}, 10*time.Second)
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
	e, err := startFails(t, remote.Spec{Host: srv.Host()}, 10*time.Second)
	if e == nil || e.Kind != remote.PasswordOnly {
		t.Fatalf("classified as %+v", e)
	}
	if msg := err.Error(); !strings.Contains(msg, "this window cannot answer password prompts; use a key or ssh-agent") || !strings.Contains(msg, "Permission denied") {
		t.Fatalf("message %q", msg)
	}
}

func TestRefusedAndUnknownHosts(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	port := srv.Port
	srv.Stop() // nothing listens there now
	h := srv.Host()
	h.Target = remote.Target{Host: "127.0.0.1", Port: port}
	e, err := startFails(t, remote.Spec{Host: h}, 10*time.Second)
	if e == nil || e.Kind != remote.Refused || !strings.Contains(err.Error(), "Connection refused") {
		t.Fatalf("refused port: %+v", e)
	}

	h.Target = remote.Target{Host: "no-such-host.invalid"}
	e, err = startFails(t, remote.Spec{Host: h}, 20*time.Second)
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
	e, err := startFails(t, remote.Spec{Host: srv.Host(), Dir: missing}, 10*time.Second)
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
		e, err = startFails(t, remote.Spec{Host: srv.Host(), Agent: "nope"}, 10*time.Second)
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
	e, err := startFails(t, remote.Spec{Host: srv.Host(), Args: words}, 10*time.Second)
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
	if !sshtest.WaitGone(started.PID, 5*time.Second) {
		t.Fatalf("the remote agent %d outlived its ssh", started.PID)
	}
	t.Logf("ssh %s; the remote agent was gone %v later", exit.Describe(), time.Since(killed).Round(time.Millisecond))
}
