package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// commandNames are the agent's commands the palette and "/" offer.
func commandNames(w *Tab) []string {
	var names []string
	onUI(func() {
		for _, c := range w.commands.agentCommands {
			names = append(names, c.Title)
		}
	})
	return names
}

// dialogSays is the text of the dialog in front, if it is a question.
func dialogSays(w *Tab) string {
	var text string
	onUI(func() {
		if k, ok := w.modals.top().(*keyDialog); ok {
			if l, ok := k.content.(*widget.Label); ok {
				text = l.Text
			}
		}
	})
	return text
}

// TestRealAgentTrustsAFolder: a folder with its own prompt template
// (.pi/prompts/review.md). pi 1.6.0 leaves it out in RPC mode until the
// folder is trusted: the window asks once, names the template and says
// that extensions are programs; Trust restarts pi with --approve and
// /review is offered; the answer is kept, so a second tab there asks
// nothing and starts with --approve. pi 0.73.1 has no --approve and loads
// the template at once: nothing is asked.
func TestRealAgentTrustsAFolder(t *testing.T) {
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv(pienv.BinaryEnv) == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or " + pienv.BinaryEnv + " set")
	}
	llm := llmserver.Start(t)
	env := pienv.Setup(t, llm.URL())
	prompts := filepath.Join(env.WorkDir, ".pi", "prompts")
	os.MkdirAll(prompts, 0o755)
	os.WriteFile(filepath.Join(prompts, "review.md"), []byte("---\ndescription: Review the change\n---\nReview this change."), 0o644)
	os.MkdirAll(filepath.Join(env.WorkDir, ".pi", "extensions"), 0o755)
	os.WriteFile(filepath.Join(env.WorkDir, ".pi", "extensions", "noop.ts"), []byte("export default function () {}\n"), 0o644)
	// The app starts the agent with its own environment: pienv's, here.
	for _, kv := range env.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	// pienv turns templates off for hermetic runs; this test is about them.
	args := slices.DeleteFunc(slices.Clone(env.Args), func(a string) bool { return a == "--no-prompt-templates" })
	w := openWindowWith(t, Flags{Agent: env.Binary, Dir: env.WorkDir, AgentArgs: args})

	if !pienv.Selected().IsCurrent() {
		testsupport.Eventually(t, "/review offered by pi 0.73.1 at once", func() bool { return slices.Contains(commandNames(w), "/review") })
		if dialogOpen(w) {
			t.Fatalf("pi 0.73.1 has no --approve, yet the window asked: %q", dialogSays(w))
		}
		return
	}
	testsupport.Eventually(t, "the question about the folder's agent files", func() bool {
		return strings.Contains(dialogSays(w), "has agent files of its own")
	})
	q := dialogSays(w)
	for _, want := range []string{"Prompt templates: review", "Extensions: noop.ts", "Extensions are programs"} {
		if !strings.Contains(q, want) {
			t.Errorf("the question does not say %q:\n%s", want, q)
		}
	}
	if slices.Contains(commandNames(w), "/review") {
		t.Fatal("/review is offered before the folder is trusted")
	}
	press(w, fyne.KeyReturn) // Trust and restart
	testsupport.Eventually(t, "/review offered after Trust", func() bool { return slices.Contains(commandNames(w), "/review") })
	if got := w.controller.Options().Args; !slices.Contains(got, "--approve") {
		t.Errorf("restarted with %q, want --approve", got)
	}
	var decision string
	onUI(func() { decision = w.shell.trust.get(env.WorkDir) })
	if decision != trusted {
		t.Errorf("decision kept: %q", decision)
	}

	// A second tab in the folder asks nothing and has the template.
	var second *Tab
	onUI(func() { second = w.shell.openTab(w.flags, true) })
	testsupport.Eventually(t, "/review in the second tab", func() bool { return slices.Contains(commandNames(second), "/review") })
	if dialogOpen(second) {
		t.Fatalf("the second tab asked again: %q", dialogSays(second))
	}
}
