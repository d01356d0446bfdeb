package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// openTabsIn opens the window with a tab for each folder, the fake agent
// logging what it reads to agent-stdin.log in its own folder.
func openTabsIn(t *testing.T, dirs []string, agentArgs ...string) *Window {
	t.Helper()
	t.Setenv(rpctest.EnvChild, "1")
	path, _ := rpctest.Command()
	flags := Flags{Agent: path, Dir: dirs[0], Dirs: dirs, AgentArgs: append([]string{"--fake-log=agent-stdin.log"}, agentArgs...)}
	w := openWindowWith(t, flags).shell
	for _, tab := range w.Tabs() {
		testsupport.Eventually(t, "every tab connected", func() bool { return tab.session.View(nil).Conn == model.ConnReady })
	}
	return w
}

// tempDirs makes n empty folders, named as the tabs' labels show them.
func tempDirs(t *testing.T, names ...string) []string {
	var out []string
	for _, n := range names {
		d := filepath.Join(t.TempDir(), n)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// agentsIn counts the processes working in dir: the agents a tab there
// started (Linux's /proc tells a process's working folder).
func agentsIn(t *testing.T, dir string) int {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cwd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range procs {
		if target, err := os.Readlink(p); err == nil && target == dir && filepath.Dir(p) != "/proc/"+strconv.Itoa(os.Getpid()) {
			n++
		}
	}
	return n
}

func promptsIn(t *testing.T, dir string) []string {
	var out []string
	for _, r := range sentOfType(t, filepath.Join(dir, "agent-stdin.log"), "prompt") {
		out = append(out, r["message"].(string))
	}
	return out
}

func current(w *Window) (t *Tab) {
	onUI(func() { t = w.current })
	return t
}

// TestTabsEachTalkToTheirOwnAgent: two folders, two tabs, two agents; a
// prompt typed in each reaches that tab's agent only; Ctrl+T opens a
// third in the current folder, Ctrl+Tab and Ctrl+1…9 move between them,
// Ctrl+W closes one and its agent ends.
func TestTabsEachTalkToTheirOwnAgent(t *testing.T) {
	dirs := tempDirs(t, "alpha", "beta")
	w := openTabsIn(t, dirs)
	tabs := w.Tabs()
	if len(tabs) != 2 || current(w) != tabs[0] {
		t.Fatalf("%d tabs, want one per folder with the first in front", len(tabs))
	}
	onUI(func() {
		if !w.bar.Visible() || len(w.bar.Items) != 2 {
			t.Errorf("tab bar visible=%v with %d items, want it showing both", w.bar.Visible(), len(w.bar.Items))
		}
		if w.area.Objects[0] != tabs[0].view {
			t.Error("the canvas holds something else than the first tab")
		}
	})
	typeAndSend(tabs[0], "question for alpha")
	testsupport.Eventually(t, "alpha's reply", func() bool { return settledReply(tabs[0]) })

	onUI(func() { w.runShortcut(shortcut(fyne.KeyTab, fyne.KeyModifierControl)) })
	if current(w) != tabs[1] {
		t.Fatal("Ctrl+Tab did not bring the second tab forward")
	}
	var focused fyne.Focusable
	var title string
	onUI(func() { focused, title = w.win.Canvas().Focused(), w.win.Title() })
	if focused != tabs[1].composer.prompt.Editor {
		t.Fatalf("after the switch the keyboard is on %T, not the second tab's editor", focused)
	}
	if !strings.Contains(title, "beta") {
		t.Fatalf("window title %q, want the second tab's folder", title)
	}
	typeAndSend(tabs[1], "question for beta")
	testsupport.Eventually(t, "beta's reply", func() bool { return settledReply(tabs[1]) })
	if a, b := promptsIn(t, dirs[0]), promptsIn(t, dirs[1]); len(a) != 1 || a[0] != "question for alpha" || len(b) != 1 || b[0] != "question for beta" {
		t.Fatalf("alpha's agent got %q, beta's %q", a, b)
	}
	var labels []string
	onUI(func() {
		for _, it := range w.bar.Items {
			labels = append(labels, it.Text)
		}
	})
	if labels[0] != "question for alpha — alpha" || labels[1] != "question for beta — beta" {
		t.Fatalf("tab labels %q, want the first prompt's words and the folder", labels)
	}

	// A dialog open in the tab left behind goes with it.
	onUI(tabs[1].commands.actionRename)
	onUI(func() { w.runShortcut(shortcut(fyne.KeyT, fyne.KeyModifierShortcutDefault)) })
	third := current(w)
	var overlays int
	onUI(func() { overlays = len(w.win.Canvas().Overlays().List()) })
	if overlays != 0 {
		t.Fatalf("%d dialogs over the new tab, want the old tab's Rename gone with it", overlays)
	}
	if len(w.Tabs()) != 3 || third == tabs[0] || third == tabs[1] {
		t.Fatal("Ctrl+T did not open a third tab in front")
	}
	testsupport.Eventually(t, "the new tab's agent", func() bool { return third.session.View(nil).Conn == model.ConnReady })
	if third.started.dir != dirs[1] || agentsIn(t, dirs[1]) != 2 {
		t.Fatalf("the new tab works in %q with %d agents there, want beta's folder and a second agent", third.started.dir, agentsIn(t, dirs[1]))
	}
	onUI(func() { w.runShortcut(shortcut(fyne.Key1, fyne.KeyModifierShortcutDefault)) })
	if current(w) != tabs[0] {
		t.Fatal("Ctrl+1 did not pick the first tab")
	}
	onUI(func() { w.runShortcut(shortcut(fyne.KeyPageUp, fyne.KeyModifierControl)) })
	if current(w) != third {
		t.Fatal("Ctrl+PageUp from the first tab did not go round to the last")
	}
	onUI(third.commands.actionRename) // closing the tab takes its dialog away too
	onUI(func() { w.runShortcut(shortcut(fyne.KeyW, fyne.KeyModifierShortcutDefault)) })
	// In front now is the second tab, with the Rename it had open back.
	var top modal
	onUI(func() { overlays, top = len(w.win.Canvas().Overlays().List()), tabs[1].modals.top() })
	if current(w) != tabs[1] || overlays != 1 || top == nil {
		t.Fatalf("after closing: %d dialogs on screen, the second tab's Rename open: %v; want it alone", overlays, top != nil)
	}
	press(tabs[1], fyne.KeyEscape)
	var barShows bool
	onUI(func() { barShows = w.bar.Selected() == w.items[w.current] })
	if !barShows {
		t.Fatal("after closing, the tab bar highlights another tab than the one in front")
	}
	if len(w.Tabs()) != 2 || current(w) == third {
		t.Fatalf("Ctrl+W left %d tabs", len(w.Tabs()))
	}
	testsupport.Eventually(t, "the closed tab's agent gone", func() bool { return agentsIn(t, dirs[1]) == 1 })
	onUI(func() { w.closeTab(tabs[1]) })
	testsupport.Eventually(t, "beta's agents gone", func() bool { return agentsIn(t, dirs[1]) == 0 })
	onUI(func() {
		if w.bar.Visible() {
			t.Error("the tab bar still shows with one tab left")
		}
	})
	if agentsIn(t, dirs[0]) != 1 {
		t.Fatal("closing the other tabs took alpha's agent too")
	}
}

// TestTabsBackgroundDialogWaits: a dialog asked by a tab behind the
// current one does not show, nor take the keyboard; its tab is marked as
// needing the user; it opens when that tab comes forward and its answer
// goes to that tab's agent. One whose timeout passed while it waited
// never shows.
func TestTabsBackgroundDialogWaits(t *testing.T) {
	dirs := tempDirs(t, "front", "back")
	w := openTabsIn(t, dirs)
	front, back := w.Tabs()[0], w.Tabs()[1]
	test.AssertNotificationSent(t, &fyne.Notification{Title: appTitle, Content: "please [[ext:confirm]] — back needs you: the agent asks a question"}, func() {
		onUI(func() { back.controller.Send("please [[ext:confirm]]", nil, false, func() {}) })
		testsupport.Eventually(t, "the background dialog queued", func() bool {
			var waiting bool
			onUI(func() { waiting = back.dialogs.Waiting() })
			return waiting
		})
	})
	var overlays int
	var focused fyne.Focusable
	var mark tabMark
	onUI(func() {
		overlays, focused, mark = len(w.win.Canvas().Overlays().List()), w.win.Canvas().Focused(), back.mark
	})
	if overlays != 0 || focused != front.composer.prompt.Editor {
		t.Fatalf("a background dialog shows (%d overlays) or took the keyboard (%T)", overlays, focused)
	}
	if mark != markNeedsYou {
		t.Fatalf("the background tab's mark is %d, want needs-you", mark)
	}
	typeAndSend(front, "still typing here")
	testsupport.Eventually(t, "front's reply", func() bool { return settledReply(front) })

	onUI(func() { w.show(back) })
	onUI(func() { test.Tap(findButton(t, w.win, "Yes")) })
	testsupport.Eventually(t, "the answer reached the back tab's agent", func() bool {
		return len(sentOfType(t, filepath.Join(dirs[1], "agent-stdin.log"), "extension_ui_response")) == 1
	})
	if n := len(sentOfType(t, filepath.Join(dirs[0], "agent-stdin.log"), "extension_ui_response")); n != 0 {
		t.Fatalf("the front tab's agent got %d dialog answers", n)
	}

	// Behind again, a dialog with a short timeout outlives its wait.
	onUI(func() { w.show(front) })
	onUI(func() { back.controller.Send("quick [[ext:confirm:timeout=300]]", nil, false, func() {}) })
	testsupport.Eventually(t, "the timed dialog queued", func() bool {
		var waiting bool
		onUI(func() { waiting = back.dialogs.Waiting() })
		return waiting
	})
	time.Sleep(400 * time.Millisecond) // the agent's own timeout, not a wait for the app
	onUI(func() { w.show(back) })
	onUI(func() { overlays = len(w.win.Canvas().Overlays().List()) })
	if overlays != 0 {
		t.Fatal("a dialog whose timeout passed while it waited opened anyway")
	}
	if n := len(sentOfType(t, filepath.Join(dirs[1], "agent-stdin.log"), "extension_ui_response")); n != 1 {
		t.Fatalf("%d answers sent, want only the first dialog's", n)
	}

	// The app's own dialogs are the tab's too: one asked behind waits,
	// one open in front goes off the screen with its tab and comes back.
	overlaysNow := func() (n int) {
		onUI(func() { n = len(w.win.Canvas().Overlays().List()) })
		return n
	}
	onUI(func() { w.show(front) })
	onUI(func() { back.message("From behind", "a message of the background tab") })
	if n := overlaysNow(); n != 0 {
		t.Fatalf("a background tab's message shows in front (%d overlays)", n)
	}
	onUI(front.commands.actionRename)
	if n := overlaysNow(); n != 1 {
		t.Fatalf("%d overlays with Rename open, want 1", n)
	}
	onUI(func() { w.show(back) })
	var top modal
	onUI(func() { top = back.modals.top() })
	if n := overlaysNow(); n != 1 || top == nil {
		t.Fatalf("after switching: %d overlays, want only the background tab's message", n)
	}
	press(back, fyne.KeyEscape)
	onUI(func() { w.show(front) })
	onUI(func() { focused = w.win.Canvas().Focused() })
	if n := overlaysNow(); n != 1 || focused == front.composer.prompt.Editor {
		t.Fatalf("back in front: %d overlays, focus on %T; want Rename again, with the keyboard", n, focused)
	}
	press(front, fyne.KeyEscape)
	if n := overlaysNow(); n != 0 {
		t.Fatalf("%d overlays after Esc", n)
	}
}

// TestTabsQuitAsksOnceAndLeavesNoAgent: with agents working in two of
// three tabs, quitting asks once; Quit ends every agent.
func TestTabsQuitAsksOnceAndLeavesNoAgent(t *testing.T) {
	dirs := tempDirs(t, "one", "two", "three")
	w := openTabsIn(t, dirs, "--fake-delay=100ms")
	tabs := w.Tabs()
	onUI(func() {
		tabs[0].controller.Send("busy [[long:400]]", nil, false, func() {})
		tabs[2].controller.Send("busy too [[long:400]]", nil, false, func() {})
	})
	testsupport.Eventually(t, "two tabs working", func() bool {
		return drawn(tabs[0]).Running && drawn(tabs[2]).Running
	})
	// Ctrl+W on a working tab asks; Cancel keeps it.
	onUI(func() { w.closeTab(tabs[2]) })
	onUI(func() { test.Tap(findButton(t, w.win, "Cancel")) })
	if len(w.Tabs()) != 3 || agentsIn(t, dirs[2]) != 1 {
		t.Fatalf("%d tabs left after Cancel", len(w.Tabs()))
	}
	onUI(w.requestQuit)
	var overlays int
	onUI(func() { overlays = len(w.win.Canvas().Overlays().List()) })
	if overlays != 1 {
		t.Fatalf("%d dialogs on quit, want one question", overlays)
	}
	onUI(func() { test.Tap(findButton(t, w.win, "Quit")) })
	for _, d := range dirs {
		testsupport.Eventually(t, "no agent left in "+filepath.Base(d), func() bool { return agentsIn(t, d) == 0 })
	}
}

// TestTabsReopenAtNextStart: the tabs open at quit are kept with their
// session files; the next start offers them, and Reopen brings each back
// with its conversation, in its folder.
func TestTabsReopenAtNextStart(t *testing.T) {
	dirs := tempDirs(t, "left", "right")
	w := openTabsIn(t, dirs, "--session-dir", t.TempDir())
	tabs := w.Tabs()
	for i, tab := range tabs {
		typeAndSend(tab, "prompt of tab "+strconv.Itoa(i))
		testsupport.Eventually(t, "the reply", func() bool { return settledReply(tab) })
	}
	onUI(func() { w.reopen.remember(w.Tabs()) })
	onUI(func() { w.closeTab(tabs[1]) })

	onUI(func() { w.reopen.offer(Flags{}) })
	var text string
	var shown bool
	onUI(func() { text, shown = w.reopen.text.Text, w.reopen.box.Visible() })
	if !shown || !strings.HasPrefix(text, "2 tabs were open") {
		t.Fatalf("the offer shows %v with %q", shown, text)
	}
	onUI(w.reopen.reopen)
	all := w.Tabs()
	if len(all) != 3 {
		t.Fatalf("%d tabs after Reopen, want the one left and the two reopened", len(all))
	}
	for i, tab := range all[1:] {
		want := "prompt of tab " + strconv.Itoa(i)
		testsupport.Eventually(t, "the reopened conversation", func() bool {
			v := drawn(tab)
			return len(v.Items) > 0 && v.Items[0].Text == want
		})
		if tab.started.dir != dirs[i] {
			t.Fatalf("reopened tab %d works in %q, want %q", i, tab.started.dir, dirs[i])
		}
	}
	onUI(func() { shown = w.reopen.box.Visible() })
	if shown {
		t.Fatal("the offer still shows after Reopen")
	}
}

// TestTabsBackgroundFinishNotifies: a run ending in a tab behind the
// current one sends a desktop notification and marks the tab unread until
// it is shown.
func TestTabsBackgroundFinishNotifies(t *testing.T) {
	dirs := tempDirs(t, "shown", "behind")
	w := openTabsIn(t, dirs)
	back := w.Tabs()[1]
	test.AssertNotificationSent(t, &fyne.Notification{Title: appTitle, Content: "a job behind — behind finished"}, func() {
		onUI(func() { back.controller.Send("a job behind", nil, false, func() {}) })
		// The run ends with the agent's settle, after the reply is drawn.
		testsupport.Eventually(t, "the background tab marked finished", func() bool {
			var mark tabMark
			onUI(func() { mark = back.mark })
			return mark == markUnread
		})
	})
	var mark tabMark
	onUI(func() { w.show(back); mark = back.mark })
	if mark != markNone {
		t.Fatalf("shown, the tab's mark is still %d", mark)
	}
}

// TestTabsDialogKeepsWhatWasTyped: an extension's input dialog left for
// another tab comes back with the text typed in it.
func TestTabsDialogKeepsWhatWasTyped(t *testing.T) {
	dirs := tempDirs(t, "asking", "other")
	w := openTabsIn(t, dirs)
	asking, other := w.Tabs()[0], w.Tabs()[1]
	onUI(func() { asking.controller.Send("name it [[ext:input]]", nil, false, func() {}) })
	testsupport.Eventually(t, "the input dialog", func() bool { return dialogOpen(asking) })
	typeInto(asking, "half an ans")
	onUI(func() { w.show(other) })
	onUI(func() { w.show(asking) })
	typeInto(asking, "wer")
	press(asking, fyne.KeyReturn)
	testsupport.Eventually(t, "the answer sent", func() bool {
		return len(sentOfType(t, filepath.Join(dirs[0], "agent-stdin.log"), "extension_ui_response")) == 1
	})
	if got := sentOfType(t, filepath.Join(dirs[0], "agent-stdin.log"), "extension_ui_response")[0]["value"]; got != "half an answer" {
		t.Fatalf("the agent got %q, want the text typed before and after the switch", got)
	}
}

// TestTabsBackgroundStopSaysStopped: a run stopped in a tab behind is told
// as stopped, not finished (the agent's settle says aborted): the desktop
// notification says so and the tab's mark is the stop mark.
func TestTabsBackgroundStopSaysStopped(t *testing.T) {
	dirs := tempDirs(t, "shown", "behind")
	w := openTabsIn(t, dirs)
	back := w.Tabs()[1]
	test.AssertNotificationSent(t, &fyne.Notification{Title: appTitle, Content: "a long job [[slow:200]] [[long:100]] — behind stopped"}, func() {
		onUI(func() { back.controller.Send("a long job [[slow:200]] [[long:100]]", nil, false, func() {}) })
		testsupport.Eventually(t, "the background run streams", func() bool {
			var running bool
			onUI(func() { back.draw(); running = back.drawn.Running && len(back.drawn.Items) > 1 })
			return running
		})
		onUI(func() { back.controller.Escape() })
		testsupport.Eventually(t, "the background tab marked stopped", func() bool {
			var mark tabMark
			onUI(func() { mark = back.mark })
			return mark == markStopped
		})
	})
}
