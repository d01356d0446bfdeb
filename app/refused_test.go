package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// agentCommand is the agent's command /name as the palette lists it now,
// with the palette closed again; ok is false while it is not listed.
func agentCommand(w *Tab, name string) (it model.PaletteItem, ok bool) {
	onUI(func() {
		w.commands.actionPalette()
		for _, l := range w.commands.palette.Listed() {
			if l.ID == "cmd:"+name {
				it, ok = l, true
			}
		}
		w.commands.palette.Hide()
	})
	return it, ok
}

// slashListed types text into the empty editor and returns what the "/"
// completion lists, then empties the editor again.
func slashListed(w *Tab, text string) []model.PaletteItem {
	var out []model.PaletteItem
	onUI(func() {
		ed := w.composer.prompt.Editor
		test.Type(ed, text)
		out = w.composer.slash.Listed()
		w.composer.slash.Hide()
		ed.SetText("")
	})
	return out
}

// A command that answers it runs only in the agent's terminal UI (pi
// 1.6's /llama) is greyed in the palette and the "/" completion once run,
// and for the same agent in a new window from the start.
func TestACommandTheAgentRefusesIsGreyed(t *testing.T) {
	w, log := openTestWindow(t, "--fake-tui-command=tuithing")
	testsupport.Eventually(t, "the agent's commands listed", func() bool {
		_, ok := agentCommand(w, "tuithing")
		return ok
	})
	if it, _ := agentCommand(w, "tuithing"); it.Unavailable != "" {
		t.Fatalf("greyed before it was run: %q", it.Unavailable)
	}

	// Chosen in the palette, it goes to the editor; Enter sends it.
	onUI(w.commands.actionPalette)
	runFromPalette(w, "tuithing")
	onUI(func() { w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) })
	testsupport.Eventually(t, "/tuithing greyed in the palette", func() bool {
		it, _ := agentCommand(w, "tuithing")
		drawn(w)
		return it.Unavailable == refusedReason
	})
	if p := sentOfType(t, log, "prompt"); len(p) != 1 || strings.TrimSpace(p[0]["message"].(string)) != "/tuithing" {
		t.Fatalf("prompts sent: %v", p)
	}
	if l := slashListed(w, "/tuith"); len(l) == 0 || l[0].ID != "cmd:tuithing" || l[0].Unavailable != refusedReason {
		t.Fatalf("the \"/\" completion lists %+v", l)
	}
	if got := refusedCommands(w.app.Preferences(), w.agentIdentity()); len(got) != 1 || got[0] != "tuithing" {
		t.Fatalf("remembered for this agent: %v", got)
	}

	// A new window of the same app, with the same agent, knows it.
	var w2 *Tab
	onUI(func() { w2 = NewWindow(w.app, w.flags).Current() })
	t.Cleanup(func() {
		w2.shell.shutdown()
		onUI(w2.win.Close)
	})
	var it model.PaletteItem
	testsupport.Eventually(t, "the new window lists the agent's commands", func() bool {
		var ok bool
		it, ok = agentCommand(w2, "tuithing")
		return ok
	})
	if it.Unavailable != refusedReason {
		t.Fatalf("new window: /tuithing listed %q", it.Unavailable)
	}
	if l := slashListed(w2, "/tuith"); len(l) == 0 || l[0].Unavailable != refusedReason {
		t.Fatalf("new window: the \"/\" completion lists %+v", l)
	}
}
