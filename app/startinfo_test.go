package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// TestResolveStartSaysWhereValuesCameFrom: the agent, folder and
// arguments the agent is started with, each with where it came from, as
// Settings shows them.
func TestResolveStartSaysWhereValuesCameFrom(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{"/saved/kc": true}
	l := lookup{
		execFolder: func() (string, error) { return "/apps", nil },
		lookPath: func(name string) (string, error) {
			if name == "pi" || name == exeName("pi") {
				return "/usr/local/bin/pi", nil
			}
			return "", errors.New("not found")
		},
		isFile: func(p string) bool { return files[p] },
	}
	getwd := func() (string, error) { return dir, nil }

	st := resolveStart(Flags{}, Settings{}, l, getwd)
	if st.agent != "/usr/local/bin/pi" || !strings.Contains(st.agentInUse(), "found on PATH as pi") {
		t.Fatalf("nothing set: %q", st.agentInUse())
	}
	if st.dir != dir || st.dirInUse() != "In use: "+dir+" — the folder the app was started in." {
		t.Fatalf("folder: %q", st.dirInUse())
	}
	if !strings.Contains(st.argsInUse(), "no extra arguments") {
		t.Fatalf("args: %q", st.argsInUse())
	}

	st = resolveStart(Flags{}, Settings{AgentPath: "/saved/kc", WorkDir: filepath.Join(dir, "gone"), AgentArgs: []string{"--provider", "my local"}}, l, getwd)
	if st.agent != "/saved/kc" || st.agentInUse() != "In use: /saved/kc — this setting." {
		t.Fatalf("saved agent: %q", st.agentInUse())
	}
	if !st.dirMissing || !strings.Contains(st.dirInUse(), "— this setting. This folder does not exist") {
		t.Fatalf("saved folder that is gone: %q", st.dirInUse())
	}
	if st.argsInUse() != `In use: --provider "my local" — this setting.` {
		t.Fatalf("saved args: %q", st.argsInUse())
	}

	st = resolveStart(Flags{}, Settings{AgentPath: "/removed/kc"}, l, getwd)
	if st.agent != "/usr/local/bin/pi" || !strings.Contains(st.agentInUse(), "The agent set here is not an executable file.") {
		t.Fatalf("saved agent gone: %q", st.agentInUse())
	}

	st = resolveStart(Flags{Agent: "pi", Dir: ".", AgentArgs: []string{"--model", "x"}}, Settings{AgentPath: "/saved/kc", AgentArgs: []string{"--provider", "p"}}, l, getwd)
	wd, _ := os.Getwd()
	if st.agent != "/usr/local/bin/pi" || !strings.Contains(st.agentInUse(), "--agent on the command line, which overrides this setting") {
		t.Fatalf("--agent: %q", st.agentInUse())
	}
	if st.dir != wd || !strings.Contains(st.dirInUse(), "--cwd on the command line") {
		t.Fatalf("--cwd .: %q", st.dirInUse())
	}
	if st.argsInUse() != "In use: --provider p --model x — this setting, then --model x from the command line." {
		t.Fatalf("both args: %q", st.argsInUse())
	}
	if got := (startInfo{}).agentInUse(); !strings.HasPrefix(got, "In use: none") {
		t.Fatalf("no agent: %q", got)
	}
}

// settingsTexts is every label's text in the dialog in front.
func settingsTexts(w *Tab) string {
	var texts []string
	onUI(func() {
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Label:
				texts = append(texts, x.Text)
			case *fyne.Container:
				for _, c := range x.Objects {
					walk(c)
				}
			case *widget.Form:
				for _, it := range x.Items {
					walk(it.Widget)
				}
			case *container.AppTabs:
				for _, it := range x.Items {
					walk(it.Content)
				}
			}
		}
		walk(w.modals.top().(*keyDialog).content)
	})
	return strings.Join(texts, "\n")
}

// TestWindowSettingsShowValuesInEffect: Settings says which agent runs and
// how it was found, the folder it runs in and its arguments — the values
// in effect, not what an empty field stands for. Changed agent settings
// apply on "Restart now", and Settings then shows the new values.
func TestWindowSettingsShowValuesInEffect(t *testing.T) {
	w, log := openTestWindow(t)
	onUI(w.showSettings)
	texts := settingsTexts(w)
	agent, args, dir := w.flags.Agent, w.flags.AgentArgs, w.flags.Dir
	for _, want := range []string{
		"In use: " + agent + " — --agent on the command line, which overrides this setting.",
		"In use: " + dir + " — --cwd on the command line, which overrides this setting.",
		"In use: " + quoteArgs(args) + " — from the command line, after --.",
	} {
		if !strings.Contains(texts, want) {
			t.Fatalf("Settings does not say %q; it says:\n%s", want, texts)
		}
	}

	// A new argument, saved; Restart now starts the agent with it.
	fs := dialogFocusables(w)
	onUI(func() { w.win.Canvas().Focus(fs[1]) }) // the arguments
	typeInto(w, "--fake-delay=1ms")
	pressCtrlEnter(w)
	testsupport.Eventually(t, "asked to restart", func() bool {
		var title string
		onUI(func() {
			if k, ok := w.modals.top().(*keyDialog); ok {
				title = k.content.(*widget.Label).Text
			}
		})
		return strings.Contains(title, "Restart it now?")
	})
	// Restart closes the agent's dialogs through uiloop.Do, from the UI
	// goroutine: Fyne queues that, the tests' onUI would wait for itself.
	restore := kit.SetDriver(kit.Driver{Do: func(f func()) { go onUI(f) }, DoAndWait: onUI})
	press(w, fyne.KeyReturn)
	restore()
	// A second agent asks for its state once it runs.
	testsupport.Eventually(t, "restarted", func() bool { return len(sentOfType(t, log, "get_state")) >= 2 && drawn(w).Conn == model.ConnReady })
	if got := strings.Join(w.controller.Options().Args, " "); !strings.HasPrefix(got, "--fake-delay=1ms ") {
		t.Fatalf("restarted with %q", got)
	}
	onUI(w.showSettings)
	if texts := settingsTexts(w); !strings.Contains(texts, "In use: --fake-delay=1ms "+quoteArgs(args)+" — this setting, then") {
		t.Fatalf("after the restart Settings says:\n%s", texts)
	}
}
