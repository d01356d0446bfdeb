package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// TestWindowFirstScreen: an empty conversation names the folder, the model
// and the agent, offers the folder's recent sessions (not another
// folder's) and the main keys; opening one from there switches to it and
// the screen gives way to the transcript. The header and the window title
// name the folder, and a session without a name by its first prompt.
func TestWindowFirstScreen(t *testing.T) {
	work := filepath.Join(t.TempDir(), "zebra-project")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	here := testsupport.PiFixture(t, sessions, work, 0)
	other := testsupport.PiFixture(t, t.TempDir(), filepath.Join(t.TempDir(), "elsewhere"), 0)
	data, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sessions, "2026-01-01T00-00-00-000Z_other.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	w, log := openTestWindowIn(t, work, "--session-dir", sessions)

	var info model.WelcomeInfo
	testsupport.Eventually(t, "the first screen with the recent sessions", func() bool {
		onUI(func() {
			w.draw()
			info = w.panels.welcomeInfo(w.drawn)
		})
		return info.RecentLoaded && info.Model != "" && info.Agent != ""
	})
	if info.Folder != "zebra-project" || info.FolderPath != kit.DisplayPath(work) {
		t.Errorf("the first screen names the folder %q (%q), want zebra-project (%q)", info.Folder, info.FolderPath, work)
	}
	if !strings.Contains(info.Agent, w.started.agent) {
		t.Errorf("the first screen names the agent %q, want its program %s", info.Agent, w.started.agent)
	}
	if len(info.Recent) != 1 || info.Recent[0].Path != here {
		t.Fatalf("recent sessions %+v, want only %s (the other one ran elsewhere)", info.Recent, here)
	}
	if len(info.Keys) == 0 {
		t.Error("the first screen teaches no keys")
	}
	var title, header, folder string
	var shown bool
	onUI(func() {
		title, header, folder, shown = w.win.Title(), w.name.Text, w.folder.Text, w.panels.welcome.Visible()
	})
	if title != "zebra-project — "+appTitle || header != "Untitled session" || folder != kit.DisplayPath(work) || !shown {
		t.Fatalf("title %q, header %q, folder %q, first screen shown %v", title, header, folder, shown)
	}

	onUI(func() { w.panels.welcome.OnOpen(here) })
	testsupport.Eventually(t, "switched to the recent session", func() bool { return len(sentOfType(t, log, "switch_session")) == 1 })
	testsupport.Eventually(t, "the transcript instead of the first screen", func() bool {
		v := drawn(w)
		onUI(func() { shown, title, header = w.panels.welcome.Visible(), w.win.Title(), w.name.Text })
		return len(v.Items) > 0 && !shown
	})
	// The recorded session has a name; without it the first prompt's
	// words stand in (TestWindowTitle).
	if v := drawn(w); header != v.SessionName || title != v.SessionName+" — zebra-project — "+appTitle {
		t.Fatalf("after opening: header %q, title %q; want the session's name %q", header, title, v.SessionName)
	}
}

func TestWindowTitle(t *testing.T) {
	for _, c := range []struct{ ext, name, first, folder, want string }{
		{"", "", "", "proj", "proj — " + appTitle},
		{"", "Refactor", "fix it", "proj", "Refactor — proj — " + appTitle},
		{"", "", "fix it", "proj", "fix it — proj — " + appTitle},
		{"Deploying", "Refactor", "fix it", "proj", "Deploying — proj — " + appTitle},
		{"", "", "", "/", appTitle},
	} {
		if got := windowTitle(c.ext, c.name, c.first, c.folder); got != c.want {
			t.Errorf("windowTitle(%q, %q, %q, %q) = %q, want %q", c.ext, c.name, c.first, c.folder, got, c.want)
		}
	}
	long := "please look at every one of the failing tests in the widgets package and fix them"
	if got := titleWords(long); got != "please look at every one of the failing…" {
		t.Errorf("titleWords cut %q", got)
	}
}
