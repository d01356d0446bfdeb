package app

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// menuItemNamed finds the item labelled label in the window's main menu.
func menuItemNamed(w *Tab, label string) *fyne.MenuItem {
	for _, m := range w.win.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	return nil
}

// paletteListed opens the palette and returns what it lists.
func paletteListed(w *Tab) []model.PaletteItem {
	var out []model.PaletteItem
	onUI(func() {
		w.commands.actionPalette()
		out = w.commands.palette.Listed()
	})
	return out
}

// runFromPalette types query into the open palette and presses Enter.
func runFromPalette(w *Tab, query string) {
	onUI(func() {
		f := w.win.Canvas().Focused()
		test.Type(f, query)
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
}

func listedIndex(items []model.PaletteItem, id string) int {
	return slices.IndexFunc(items, func(it model.PaletteItem) bool { return it.ID == id })
}

// While idle, Stop and Abort retry are greyed in the Agent menu and at the
// palette's end; a run enables Stop, a waiting retry Abort retry.
func TestStopAndAbortRetryFollowTheRun(t *testing.T) {
	w, log := openTestWindow(t, "--fake-retry-delay=60s")
	drawn(w)
	var stop, abort *fyne.MenuItem
	disabled := func() (s, a bool) {
		onUI(func() { s, a = stop.Disabled, abort.Disabled })
		return s, a
	}
	onUI(func() { stop, abort = menuItemNamed(w, "Stop (Esc)"), menuItemNamed(w, "Abort retry") })
	if stop == nil || abort == nil {
		t.Fatal("the Agent menu has no Stop or Abort retry")
	}
	if s, a := disabled(); !s || !a {
		t.Fatalf("idle: Stop disabled %v, Abort retry disabled %v", s, a)
	}
	listed := paletteListed(w)
	if listed[0].ID == "app:stop" || listed[0].Unavailable != "" {
		t.Fatalf("idle: the palette opens on %+v", listed[0])
	}
	i := listedIndex(listed, "app:stop")
	if i < 0 || listed[i].Unavailable == "" || slices.ContainsFunc(listed[i:], func(it model.PaletteItem) bool { return it.Unavailable == "" }) {
		t.Fatalf("idle: Stop at %d of %d, unavailable %q; want greyed among the last", i, len(listed), listed[max(i, 0)].Unavailable)
	}
	// Enter on the greyed Stop runs nothing and leaves the palette open.
	runFromPalette(w, "stop")
	var showing bool
	onUI(func() { showing = w.commands.palette.Showing(); w.commands.palette.Hide() })
	if !showing || len(sentOfType(t, log, "abort")) != 0 {
		t.Fatalf("Enter on a greyed Stop: palette showing %v, aborts %d", showing, len(sentOfType(t, log, "abort")))
	}

	typeAndSend(w, "a long job [[slow:200]] [[long:100]]")
	testsupport.Eventually(t, "Stop enabled while the run goes", func() bool {
		s, _ := disabled()
		return drawn(w).Running && !s
	})
	if _, a := disabled(); !a {
		t.Fatal("Abort retry enabled with no retry waiting")
	}
	listed = paletteListed(w)
	if i := listedIndex(listed, "app:stop"); i < 0 || listed[i].Unavailable != "" {
		t.Fatalf("running: Stop in the palette %+v", listed[max(i, 0)])
	}
	runFromPalette(w, "stop")
	testsupport.Eventually(t, "stopped, Stop disabled again", func() bool {
		s, _ := disabled()
		return !drawn(w).Running && s
	})

	typeAndSend(w, "[[retry]]")
	testsupport.Eventually(t, "Abort retry enabled while a retry waits", func() bool {
		_, a := disabled()
		return drawn(w).Retry != nil && !a
	})
	onUI(abort.Action)
	testsupport.Eventually(t, "abort_retry sent, Abort retry disabled again", func() bool {
		_, a := disabled()
		return len(sentOfType(t, log, "abort_retry")) == 1 && drawn(w).Retry == nil && a
	})
}

// The palette opens on the command last run, remembered in the
// preferences; "theme" finds Settings first.
func TestPaletteOpensOnTheLastCommandRun(t *testing.T) {
	w, _ := openTestWindow(t)
	paletteListed(w)
	runFromPalette(w, "find")
	var found bool
	onUI(func() { found = w.find.Visible() })
	if !found {
		t.Fatal("\"find\" and Enter did not open the find bar")
	}
	if listed := paletteListed(w); listed[0].ID != "app:find" {
		t.Fatalf("after Find, the palette opens on %q", listed[0].Title)
	}
	if r := recentActions(w.app.Preferences()); len(r) == 0 || r[0] != "app:find" {
		t.Fatalf("recent in the preferences: %v", r)
	}
	var first string
	onUI(func() {
		test.Type(w.win.Canvas().Focused(), "theme")
		first = w.commands.palette.Listed()[0].Title
		w.commands.palette.Hide()
	})
	if first != "Settings…" {
		t.Fatalf("\"theme\" lists %q first", first)
	}
}
