package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn/rpctest"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// fakeEnv makes the test binary on the "host" the fake agent; under -race
// a Go program sleeps a second at exit, which would count as the agent's
// time to stop.
var fakeEnv = []string{rpctest.EnvChild + "=1", "GORACE=atexit_sleep_ms=0"}

// TestWindowAgentOverSSH: with --ssh the agent runs on the host (a real
// sshd on 127.0.0.1, the fake agent found as knightcode on a login shell's
// PATH there) in the --cwd folder there; the header and the title name
// host and folder, a prompt gets its streamed reply, and closing the window
// leaves no agent running on the host.
func TestWindowAgentOverSSH(t *testing.T) {
	srv := sshtest.Start(t, sshtest.Options{})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "agent-stdin.log")
	srv.Exec("knightcode", fakeEnv, exe, "--fake-log="+log)
	work := filepath.Join(t.TempDir(), "remote project; $HOME")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	w := openWindowWith(t, Flags{SSH: sshtest.Alias, SSHConfig: srv.ConfigFile, Dir: work, AgentArgs: []string{"--session-dir", sessions}})

	var title, folder string
	onUI(func() { w.draw(); title, folder = w.win.Title(), w.folder.Text })
	if want := sshtest.Alias + ":" + work; folder != want {
		t.Errorf("the header names %q, want %q", folder, want)
	}
	if want := sshtest.Alias + ":" + filepath.Base(work) + " — " + appTitle; title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	if spec, ok := w.controller.Remote(); !ok || spec.Dir != work {
		t.Fatalf("the controller runs %+v (remote %v)", spec, ok)
	}

	typeAndSend(w, "hello over ssh [[long:5]]")
	testsupport.Eventually(t, "the streamed reply", func() bool {
		v := drawn(w)
		return !v.Running && len(v.Items) >= 2 && v.Items[len(v.Items)-1].Kind == model.ChatAssistant
	})
	if prompts := sentOfType(t, log, "prompt"); len(prompts) != 1 || !strings.Contains(prompts[0]["message"].(string), "hello over ssh") {
		t.Fatalf("the agent on the host got %v", prompts)
	}
	if c := drawn(w).Status.Connection; !strings.Contains(c, sshtest.Alias+" · ") || !strings.HasSuffix(c, " ms round trip") {
		t.Errorf("the status bar says %q, want the host and the round trip", c)
	}
	var info model.WelcomeInfo
	onUI(func() { info = w.panels.welcomeInfo(w.drawn) })
	if !strings.Contains(info.Agent, "on "+sshtest.Alias) {
		t.Errorf("the first screen says the agent is %q", info.Agent)
	}

	// What the agent writes on the host comes here: an HTML export to a
	// file picked here, a tool's full output to open.
	local := filepath.Join(t.TempDir(), "exported.html")
	if got, err := w.controller.ExportHTML(t.Context(), local); err != nil || got != local {
		t.Fatalf("export over ssh: %q, %v", got, err)
	}
	if html, _ := os.ReadFile(local); !strings.Contains(string(html), "hello over ssh") {
		t.Fatalf("the exported file holds %q", html)
	}
	output := filepath.Join(t.TempDir(), "bash-output.log")
	os.WriteFile(output, []byte("line 1\nline 2\n"), 0o644)
	fetched, err := w.controller.FetchFile(t.Context(), output, t.TempDir())
	if data, _ := os.ReadFile(fetched); err != nil || string(data) != "line 1\nline 2\n" || fetched == output {
		t.Fatalf("fetched %s: %q, %v", fetched, data, err)
	}

	w.shell.shutdown()
	testsupport.EventuallyGone(t, "the agent on the host, after the window closed", func() string {
		var left []string
		for _, p := range sshtest.Descendants(srv.PID()) {
			if pr, ok := sshtest.ReadProc(p); ok && pr.Alive() && pr.Comm != "sshd" && pr.Comm != "sshd-session" {
				left = append(left, fmt.Sprintf("%+v", pr))
			}
		}
		return strings.Join(left, "; ")
	})
}

// TestWindowDropOnRemoteAgent: a dropped file that is not an image is not
// referenced for an agent on a host, which cannot read it; the window says
// so and the draft stays as it was.
func TestWindowDropOnRemoteAgent(t *testing.T) {
	srv := sshtest.Start(t, sshtest.Options{})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv.Exec("knightcode", fakeEnv, exe)
	w := openWindowWith(t, Flags{SSH: sshtest.Alias, SSHConfig: srv.ConfigFile, Dir: t.TempDir()})
	notes := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notes, []byte("x"), 0o644)
	onUI(func() {
		w.composer.prompt.Editor.SetTextCursorAtEnd("draft ")
		w.composer.insertReferences([]droppedFile{{path: notes}})
	})
	var text string
	onUI(func() { text = w.composer.prompt.Editor.Text() })
	if text != "draft " {
		t.Fatalf("the draft became %q", text)
	}
	var said []model.Notice
	onUI(func() { said = w.toasts.History() })
	if len(said) == 0 || !strings.Contains(said[len(said)-1].Text, "cannot read files on this computer") {
		t.Fatalf("the window said %+v", said)
	}
}

// TestRealAgentWindowOverSSH: the real public agent, pi, on the "host" (a
// real sshd on this machine, pi found on its login PATH) from the window:
// a streamed reply, an image prompt that reaches the model, the
// extension's confirm dialog answered with Enter, and a tool that runs in
// the folder on the host.
func TestRealAgentWindowOverSSH(t *testing.T) {
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv(pienv.BinaryEnv) == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or " + pienv.BinaryEnv + " set")
	}
	srv := sshtest.Start(t, sshtest.Options{})
	llm := llmserver.Start(t)
	env := pienv.Setup(t, llm.URL(), pienv.WithExtension(pienv.UIExtension(t)))
	srv.Exec("pi", env.Env, env.Binary) // with the home pienv prepared
	w := openWindowWith(t, Flags{SSH: sshtest.Alias, SSHConfig: srv.ConfigFile, Dir: env.WorkDir, AgentArgs: env.Args})

	typeAndSend(w, "[[long:30]]")
	testsupport.Eventually(t, "the streamed reply", func() bool { return settledReply(w) })

	pngPath := filepath.Join(t.TempDir(), "shot.png")
	writePNG(t, pngPath, 64)
	onUI(func() { w.composer.onDropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(pngPath)}) })
	testsupport.Eventually(t, "image loaded", func() bool { return readyCount(w) == 1 })
	before := len(llm.Requests())
	typeAndSend(w, "what is in this picture?")
	testsupport.Eventually(t, "the reply to the image", func() bool { return settledReply(w) && len(llm.Requests()) > before })
	if last := llm.Requests()[len(llm.Requests())-1]; !last.HasImages {
		t.Fatalf("the model got no image: %+v", last)
	}

	typeAndSend(w, "[[bash:pwd]]")
	testsupport.Eventually(t, "the confirm dialog", func() bool { return dialogOpen(w) })
	press(w, fyne.KeyReturn)
	testsupport.Eventually(t, "the tool ran in the folder on the host", func() bool {
		v := drawn(w)
		return settledReply(w) && len(v.Cards) > 0 && strings.TrimSpace(v.Cards[len(v.Cards)-1].Output) == env.WorkDir
	})
}
