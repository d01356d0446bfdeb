package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/agentsetup"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// visibleTexts are the texts of the visible labels and buttons under o.
func visibleTexts(o fyne.CanvasObject) string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *canvas.Text:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, "["+x.Text+"]")
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return strings.Join(out, "\n")
}

// TestWindowWithoutAnAgent: with no agent anywhere, the tab shows the agent
// panel in place of the conversation, naming the current package and
// offering the install, with the status bar at the bottom of the window as
// in every other state, and neither header nor editor.
func TestWindowWithoutAnAgent(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	if _, ok := agentsetup.InstalledLauncher(); ok {
		t.Fatal("an agent is installed in the test's HOME")
	}
	serializeUI(t)
	a := test.NewTempApp(t)
	var w *Tab
	onUI(func() {
		w = NewWindow(a, Flags{Dir: t.TempDir()}).Current()
		w.win.Resize(fyne.NewSize(1100, 760))
	})
	t.Cleanup(func() {
		w.shell.shutdown()
		onUI(w.win.Close)
	})
	testsupport.Eventually(t, "the agent panel", func() bool {
		var showing bool
		onUI(func() { showing = w.agentSetup.showing() })
		return showing
	})
	var text string
	var statusBottom, windowHeight float32
	onUI(func() {
		w.draw()
		text = visibleTexts(w.view)
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(w.status)
		statusBottom = pos.Y + w.status.Size().Height
		windowHeight = w.win.Canvas().Size().Height
	})
	for _, want := range []string{"No agent found", agentsetup.Current.Package, "Not connected · no agent"} {
		if !strings.Contains(text, want) {
			t.Errorf("the tab does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "@mariozechner") {
		t.Errorf("the panel names the old package:\n%s", text)
	}
	if w.composer.prompt.Visible() || w.top.Visible() {
		t.Error("the editor or the header shows without an agent")
	}
	// The status bar ends at the window's bottom (within a padding).
	if statusBottom < windowHeight-12 {
		t.Errorf("the status bar ends at y=%v in a window %v high: not at the bottom", statusBottom, windowHeight)
	}

	// Once an agent is there (here: chosen), the panel goes and the
	// conversation comes back, with the agent started.
	fake := filepath.Join(t.TempDir(), "not-executable")
	os.WriteFile(fake, []byte("x"), 0o644)
	onUI(func() { w.agentSetup.use(fake) })
	onUI(func() {
		if !w.agentSetup.showing() {
			t.Error("a file that cannot run was taken as the agent")
		}
	})
}

// TestWindowAgentWithoutModels: an agent that lists no model gets the
// models panel as its first screen, and an agent whose --help names no
// configuration folder (as the KnightCode reference documents none) is
// told so rather than guessed at.
func TestWindowAgentWithoutModels(t *testing.T) {
	w, _ := openTestWindowNoModels(t)
	testsupport.Eventually(t, "the models panel", func() bool {
		var text string
		onUI(func() { w.draw(); text = visibleTexts(w.view) })
		return strings.Contains(text, "KnightCode reference documents no models file")
	})
	var text string
	onUI(func() { text = visibleTexts(w.view) })
	if !strings.Contains(text, "has no model to talk to yet") || !strings.Contains(text, "Connect a model") {
		t.Fatalf("the first screen:\n%s", text)
	}
	if strings.Contains(text, "Recent sessions in this folder") {
		t.Errorf("the welcome shows under the models panel:\n%s", text)
	}
}

// openTestWindowNoModels opens a window on the fake agent with no model,
// and waits until the agent has loaded.
func openTestWindowNoModels(t *testing.T) (*Tab, string) {
	t.Helper()
	t.Setenv(rpctest.EnvChild, "1")
	path, _ := rpctest.Command()
	log := filepath.Join(t.TempDir(), "agent-stdin.log")
	w := openWindowUntil(t, Flags{Agent: path, Dir: t.TempDir(), AgentArgs: []string{"--fake-log=" + log, "--fake-model-set=none"}},
		"loaded", func(w *Tab) bool {
			var ready bool
			onUI(func() { ready = w.panels.ready })
			return ready
		})
	return w, log
}
