package remote_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/agentfiles"
	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// The real public agent, pi, "remotely": found on the login shell's PATH
// of an sshd session on this machine, driven through rpcconn over ssh,
// answering from the scripted model server.
func TestRealPiOverSSH(t *testing.T) {
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv(pienv.BinaryEnv) == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or " + pienv.BinaryEnv + " set")
	}
	srv := sshtest.Start(t, sshtest.Options{})
	model := llmserver.Start(t)
	env := pienv.Setup(t, model.URL(), pienv.WithExtension(pienv.UIExtension(t)))

	// The remote "pi" gives pi the isolated environment pienv prepared.
	pi := srv.Exec("pi", env.Env, env.Binary)

	began := time.Now()
	c := startSpec(t, remote.Spec{Host: srv.Host(), Dir: env.WorkDir, Args: env.Args})
	t.Logf("pi answered get_state over ssh after %v", time.Since(began).Round(time.Millisecond))
	if c.Path() != pi || remote.ParseStarted(c.StderrTail()).How != "found pi on a login shell's PATH" {
		t.Fatalf("started %q: %s", c.Path(), c.StderrTail())
	}

	// Its --help, read on the host, says whether it can be asked to trust
	// a folder's own agent files: pi 1.6.0 can, 0.73.1 cannot.
	help, err := remote.Spec{Host: srv.Host(), Dir: env.WorkDir}.Help(testContext(t))
	if err != nil || !strings.Contains(help, "--mode") {
		t.Fatalf("Help: %v\n%s", err, help)
	}
	if got, want := agentfiles.SupportsApprove(help), pienv.Selected().IsCurrent(); got != want {
		t.Errorf("%s: --approve offered %v, want %v", pienv.Selected(), got, want)
	}

	// A streamed reply.
	if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: "[[long:30]]"}); err != nil {
		t.Fatal(err)
	}
	r := collectRun(t, c)
	if len(r.deltas) < 30 || r.joined() != r.text {
		t.Fatalf("%d deltas making %d bytes; the message has %d", len(r.deltas), len(r.joined()), len(r.text))
	}

	// A tool run in the remote folder, allowed in the extension's dialog.
	if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: "[[bash:pwd]]"}); err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	var tracker rpcconn.RunTracker
	var asked, output, reply string
	for settled := false; !settled; {
		ev, err := c.NextEvent(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case *rpcconn.ExtensionUIRequest:
			if e.Method == "confirm" {
				asked = e.Title + ": " + e.Message
				if err := c.Respond(e.ID, rpcconn.AnswerConfirmed(true)); err != nil {
					t.Fatal(err)
				}
			}
		case *rpcconn.ToolExecutionEnd:
			output = e.Result.Content.Text()
		case *rpcconn.MessageEnd:
			if e.Message.Role == rpcconn.RoleAssistant {
				reply = e.Message.Content.Text()
			}
		case *rpcconn.Exit:
			t.Fatalf("pi exited: %s\n%s", e.Describe(), e.StderrTail)
		}
		settled = tracker.Apply(ev, c.Capabilities().SettledEvent)
	}
	if asked != "Allow bash?: pwd" || strings.TrimSpace(output) != env.WorkDir || !strings.Contains(reply, env.WorkDir) {
		t.Fatalf("dialog %q, tool output %q, reply %q; want the remote folder %s", asked, output, reply, env.WorkDir)
	}

	started := remote.ParseStarted(c.StderrTail())
	c.Close()
	waitGone(t, "pi, after Close", []int{started.PID})
}
