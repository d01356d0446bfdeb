package app

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// windowGoroutines lists the goroutines running the window's own
// background work: its queries to the agent (model.Ask, inlined into
// the caller in the trace) and the rest
// (attachments, file dialogs).
func windowGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "app.(*uiloop.Workers).Go") || strings.Contains(g, ".Ask[...]") {
			out = append(out, g)
		}
	}
	return out
}

// TestWindowShutdownStopsItsQueries: queries the window started — the
// palette's commands, the session tree, the session list — are cancelled
// and waited for when the window closes, even while the agent does not
// answer; none is left running, and what they or the agent's goroutines
// hand to the UI after the loop ended is dropped.
func TestWindowShutdownStopsItsQueries(t *testing.T) {
	w, _ := openTestWindow(t)
	// The agent's stdout stalls for ten minutes mid-reply, after its
	// second delta ("word1 "): answers to the queries below wait behind
	// it, far longer than the wait for the shutdown below.
	typeAndSend(w, "[[stall:600000]] [[long:20]] [[slow:20]]")
	testsupport.Eventually(t, "the reply's second delta, where the agent stalls", func() bool {
		v := drawn(w)
		if !v.Running || len(v.Items) < 2 {
			return false
		}
		for _, b := range v.Items[len(v.Items)-1].Blocks {
			if strings.Contains(b.Text, "word1") {
				return true
			}
		}
		return false
	})
	onUI(func() {
		w.commands.loadCommands()
		w.panels.actionTree()
		w.panels.actionBrowse()
		w.commands.actionFork()
	})
	testsupport.Eventually(t, "queries running", func() bool { return len(windowGoroutines()) >= 2 })

	// Quit stops the tab's timers and redraws on the UI goroutine before
	// the loop ends (and shutdown halts kit's route before it stops them):
	// a redraw already kicked would otherwise reach the counting driver
	// below before the test's shutdown halts the route.
	onUI(w.stopUI)

	// What runs on the UI goroutine from now on is counted.
	var late []string
	count := func(f func()) {
		uiLock.Lock()
		defer uiLock.Unlock()
		late = append(late, string(debug.Stack()))
		f()
	}
	t.Cleanup(kit.SetDriver(kit.Driver{Do: count, DoAndWait: count}))
	w.shell.loopEnded.Store(true) // as Run does when Fyne's loop returns
	// Uncancelled, the queries would wait out the agent's ten-minute stall:
	// returning at all within the generous wait says they were cancelled.
	stopped := make(chan struct{})
	go func() { w.shell.shutdown(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(testsupport.GoneWait):
		t.Fatalf("stopping the window did not return within %v: its queries were not cancelled; still running:\n%s", testsupport.GoneWait, strings.Join(windowGoroutines(), "\n\n"))
	}
	if left := windowGoroutines(); len(left) > 0 {
		t.Fatalf("%d window goroutines left after stop:\n%s", len(left), strings.Join(left, "\n\n"))
	}
	if w.bg.Go(func(context.Context) {}) {
		t.Fatal("new work started after the window stopped")
	}

	// The controller's goroutines and late callbacks call these; after
	// the loop they must not reach Fyne, which would run them on the
	// calling goroutine with the window gone.
	w.ShowDialog(model.Dialog{ID: "late", Kind: model.DialogConfirm, Title: "late"})
	w.CloseDialogs()
	w.SetEditorText("late")
	w.RestoreDraft("late")
	w.Notify(model.Notice{Text: "late"})
	w.Settled(false)
	w.AfterPaint(func() {})
	w.do(func() { t.Error("w.do ran after the loop ended") })
	if len(late) > 0 {
		t.Fatalf("%d UI calls after the loop ended:\n%s", len(late), strings.Join(late, "\n\n"))
	}
}
