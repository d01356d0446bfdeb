package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// gitIn runs git in dir for a test.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func readFiles(t *testing.T, dir string, names ...string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err == nil {
			got[n] = string(b)
		}
	}
	return got
}

func sameContents(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// realPi skips the test without the real agent; else it starts the model
// server and pi's environment, which the app's own environment becomes
// when local (an SSH test gives it to the host instead).
func realPi(t *testing.T, local bool) *pienv.Env {
	t.Helper()
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv(pienv.BinaryEnv) == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or " + pienv.BinaryEnv + " set")
	}
	env := pienv.Setup(t, llmserver.Start(t).URL())
	if local {
		for _, kv := range env.Env {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
	}
	return env
}

// gitRepo makes dir a repository whose first commit holds files, with a
// user name of its own for the commits the tests make.
func gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "config", "user.name", "T")
	gitIn(t, dir, "config", "user.email", "t@example.invalid")
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "add", "--", name)
	}
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", "start")
}

// userMessages are the transcript's user messages the agent took.
func userMessages(w *Tab) []model.ChatItem {
	var out []model.ChatItem
	for _, it := range drawn(w).Items {
		if it.Kind == model.ChatUser && !it.Sent.IsZero() {
			out = append(out, it)
		}
	}
	return out
}

// TestRealAgentRestoresFilesBeforeAMessage: pi writes a file, rewrites
// another and deletes a third, one message each, in a git repository with
// something staged by the user. Restoring to before the second message
// puts back the rewritten and the deleted file and keeps the first turn's
// new file; Undo file restore takes that back; the user's index and HEAD
// are the same throughout. Edit & resend of the first message with
// "Restore files and send" is a true rewind: the new file goes too.
func TestRealAgentRestoresFilesBeforeAMessage(t *testing.T) {
	env := realPi(t, true)
	dir := env.WorkDir
	const notes, gone, made = "notes with space.txt", "-gone.txt", "made by agent.txt"
	gitRepo(t, dir, map[string]string{notes: "one\ntwo\n", gone: "bye\n"})
	os.WriteFile(filepath.Join(dir, "staged.txt"), []byte("s\n"), 0o644)
	gitIn(t, dir, "add", "staged.txt")
	userGit := func() string {
		return gitIn(t, dir, "ls-files", "-s") + gitIn(t, dir, "rev-parse", "HEAD") + gitIn(t, dir, "branch", "--list")
	}
	user := userGit()
	w := openWindowWith(t, Flags{Agent: env.Binary, Dir: dir, AgentArgs: env.Args})

	turn := func(n int, prompt string) {
		t.Helper()
		typeAndSend(w, prompt)
		testsupport.Eventually(t, "turn answered", func() bool {
			return settledReply(w) && len(userMessages(w)) == n && !drawn(w).Running
		})
	}
	turn(1, `Make a file [[tool:write:{"path":"made by agent.txt","content":"made\n"}]]`)
	turn(2, `Rewrite the notes [[tool:write:{"path":"notes with space.txt","content":"rewritten\n"}]]`)
	turn(3, `Delete one [[bash:rm -- -gone.txt]]`)
	names := []string{notes, gone, made, "staged.txt"}
	afterTurns := map[string]string{notes: "rewritten\n", made: "made\n", "staged.txt": "s\n"}
	if got := readFiles(t, dir, names...); !sameContents(got, afterTurns) {
		t.Fatalf("the agent's turns left %q", got)
	}
	refs := gitIn(t, dir, "for-each-ref", "refs/knightcode/")
	if n := strings.Count(refs, "\n"); n != 3 {
		t.Fatalf("%d checkpoints kept, want one a message:\n%s", n, refs)
	}

	second := userMessages(w)[1]
	onUI(func() { w.restore.restoreBefore(second.ID) })
	testsupport.Eventually(t, "the restore asked", func() bool { return strings.Contains(dialogSays(w), "go back to how they were") })
	q := dialogSays(w)
	for _, want := range []string{"2 files go back", "restore " + notes, "bring back " + gone} {
		if !strings.Contains(q, want) {
			t.Errorf("the question does not say %q:\n%s", want, q)
		}
	}
	press(w, fyne.KeyReturn)
	beforeSecond := map[string]string{notes: "one\ntwo\n", gone: "bye\n", made: "made\n", "staged.txt": "s\n"}
	testsupport.Eventually(t, "files as before the second message", func() bool {
		return sameContents(readFiles(t, dir, names...), beforeSecond)
	})
	if got := userGit(); got != user {
		t.Fatalf("the restore changed the user's git:\n%s\nwas\n%s", got, user)
	}

	onUI(func() { w.restore.undo() })
	testsupport.Eventually(t, "the restore undone", func() bool {
		return sameContents(readFiles(t, dir, names...), afterTurns)
	})

	// Edit & resend the first message, restoring the files too.
	first := userMessages(w)[0]
	onUI(func() {
		w.composer.editPrompt(first.ID, first.Text)
		w.composer.prompt.Editor.SetTextCursorAtEnd("Just answer")
		w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
	testsupport.Eventually(t, "the offer to restore the files too", func() bool {
		return strings.Contains(dialogSays(w), "Put them back as they were before it")
	})
	// Cancel sends nothing and keeps the edit; Enter asks again.
	press(w, fyne.KeyEscape)
	var text string
	onUI(func() { text = w.composer.prompt.Editor.Text() })
	if text != "Just answer" || dialogOpen(w) {
		t.Fatalf("after Cancel: editor %q, a dialog open %v", text, dialogOpen(w))
	}
	onUI(func() { w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) })
	testsupport.Eventually(t, "the offer again", func() bool {
		return strings.Contains(dialogSays(w), "Put them back as they were before it")
	})
	onUI(func() { test.Tap(findButton(t, w.win, "Restore files and send")) })
	beforeFirst := map[string]string{notes: "one\ntwo\n", gone: "bye\n", "staged.txt": "s\n"}
	testsupport.Eventually(t, "files as before the first message, and the edit answered", func() bool {
		texts := model.UserPrompts(w.session.View(nil).Items)
		return sameContents(readFiles(t, dir, names...), beforeFirst) && settledReply(w) &&
			len(texts) == 1 && texts[0] == "Just answer"
	})
	if got := userGit(); got != user {
		t.Fatalf("the rewind changed the user's git:\n%s\nwas\n%s", got, user)
	}
}

// TestRealAgentRestoresFilesOverSSH: the same over SSH (a real sshd on this
// machine): pi on the host writes a file in a repository there; a
// checkpoint was kept by the host's git before the message; the changes
// pane lists the file; restoring to before the message deletes it, and the
// undo brings it back.
func TestRealAgentRestoresFilesOverSSH(t *testing.T) {
	env := realPi(t, false)
	srv := sshtest.Start(t, sshtest.Options{})
	srv.Exec("pi", env.Env, env.Binary)
	dir := env.WorkDir
	gitRepo(t, dir, map[string]string{"kept.txt": "kept\n"})
	w := openWindowWith(t, Flags{SSH: sshtest.Alias, SSHConfig: srv.ConfigFile, Dir: dir, AgentArgs: env.Args})

	const made = "made on the host.txt"
	typeAndSend(w, `Make it [[tool:write:{"path":"made on the host.txt","content":"host\n"}]]`)
	testsupport.Eventually(t, "the file written on the host", func() bool {
		return settledReply(w) && readFiles(t, dir, made)[made] == "host\n"
	})
	if refs := gitIn(t, dir, "for-each-ref", "refs/knightcode/"); strings.Count(refs, "\n") != 1 {
		t.Fatalf("checkpoints on the host:\n%s", refs)
	}
	onUI(func() { w.actionChanges() })
	testsupport.Eventually(t, "the pane lists the file", func() bool {
		return paneIdle(w) && hasKeys(paneFiles(w), made)
	})

	first := userMessages(w)[0]
	onUI(func() { w.restore.restoreBefore(first.ID) })
	testsupport.Eventually(t, "the restore asked", func() bool { return strings.Contains(dialogSays(w), "delete "+made) })
	press(w, fyne.KeyReturn)
	testsupport.Eventually(t, "the file gone", func() bool { return len(readFiles(t, dir, made)) == 0 })
	onUI(func() { w.restore.undo() })
	testsupport.Eventually(t, "the file back", func() bool { return readFiles(t, dir, made)[made] == "host\n" })
}
