package app

import (
	"fmt"
	"os"
	"sync"

	"knightcode.ai/desktop/app/uiloop"
	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/widgets/kit"
)

// requestQuit is the close button and the menu's Quit: with agents
// working in several tabs it asks once, then quits.
func (w *Window) requestQuit() {
	busy := 0
	for _, t := range w.tabs {
		if t.working() {
			busy++
		}
	}
	if busy == 0 || len(w.tabs) < 2 {
		w.Quit()
		return
	}
	text := fmt.Sprintf("The agents of %d tabs are still working; quitting stops them.", busy)
	if busy == 1 {
		text = "The agent of one tab is still working; quitting stops it."
	}
	w.current.ask("Quit KnightCode?", text,
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Quit", isDefault: true, run: w.Quit})
}

// Quit shuts every tab's agent down cleanly and closes the window. It runs
// once, however many ways (close button, SIGTERM, menu) ask at the same
// time.
func (w *Window) Quit() {
	w.quitOnce.Do(w.quit)
}

// quitApp ends Fyne's loop. The loop can also end by itself while the
// agents shut down (the X display went away): Fyne then runs this on the
// calling goroutine, after GLFW was terminated, where closing the windows
// panics with "The GLFW library is not initialized". There is nothing left
// to quit then, and the app is on its way out: the panic is dropped.
func (w *Window) quitApp() {
	defer func() {
		if r := recover(); r != nil && !w.loopEnded.Load() {
			fmt.Fprintln(os.Stderr, "knightcode-desktop: quitting after the window was gone:", r)
		}
	}()
	w.app.Quit()
}

func (w *Window) quit() {
	if w.exitOnHang {
		// Also when what hangs is the UI goroutine itself, where neither
		// the bound below nor the one after the loop can end the loop.
		exitUnlessGone(quitBound, w.finishWithoutLoop)
	}
	trace.Mark("quit")
	w.keepForNextStart()
	tabs := append([]*Tab(nil), w.tabs...)
	for _, t := range tabs {
		t.stopUI()
	}
	// Off the UI goroutine: shutting down waits for the agents, and for
	// goroutines that may be waiting for the UI. shutdown, once the loop
	// has ended, waits for this goroutine: it hands nothing to the UI then.
	// Bounded like the shutdown after the loop: a quit that hangs there
	// would otherwise leave the window on screen for good, the loop never
	// ending and shutdownWithin never reached.
	w.quitting.Add(1)
	go func() {
		defer w.quitting.Done()
		shutdownWithin(shutdownBound, func() {
			shutdownAll(tabs)
			w.closing.Wait()
		})
		trace.Mark("agents-down")
		// Once Fyne's loop has ended, fyne.Do would run Quit here, on a
		// goroutine, after the graphics library is gone.
		if !w.loopEnded.Load() {
			uiloop.Do(w.quitApp)
			if w.exitOnHang {
				go w.watchLoopEnd()
			}
		}
	}()
}

// shutdown makes sure every agent is gone once the app loop has ended,
// whichever way it ended.
func (w *Window) shutdown() {
	w.loopEnded.Store(true)
	kit.Halt()
	// Fyne ends its loop by itself on SIGTERM and SIGINT, maybe before
	// Quit ran: the tabs are kept here then.
	w.keepForNextStart()
	for _, t := range w.tabs {
		t.stopUI()
	}
	w.installer.Close()
	shutdownAll(w.tabs)
	w.closing.Wait()
	// Quit's goroutine, and the widgets' background work: after Halt they
	// hand nothing to the UI, so these waits end with their own work.
	w.quitting.Wait()
	kit.WaitBackground()
}

// shutdownAll shuts the tabs' agents down side by side: each may take its
// grace period. It returns when all are down: its goroutines end with it.
func shutdownAll(tabs []*Tab) {
	var wg sync.WaitGroup
	for _, t := range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.shutdownAgent()
		}()
	}
	wg.Wait()
}

// stopUI stops the tab's timers: redraws, the cursor's blink, the clock
// of running !commands, the tool sidebar's elapsed times.
func (t *Tab) stopUI() {
	t.frames.Stop()
	t.composer.prompt.Editor.StopBlinkTimer()
	t.tickBash(false)
	t.toasts.Stop()
	t.sidebar.Stop()
	t.right.stop()
}

// shutdownAgent cancels the tab's background work and waits for it, then
// stops its agent. It blocks: never on the UI goroutine.
func (t *Tab) shutdownAgent() {
	t.bg.Stop()
	t.panels.messages.close()
	if t.controller != nil {
		t.controller.Shutdown()
	}
}

// do is tabHost.do, for the window and its tabs.
func (w *Window) do(f func()) {
	if w.loopEnded.Load() {
		return
	}
	uiloop.Do(func() {
		if !w.loopEnded.Load() {
			f()
		}
	})
}

// keepForNextStart writes down what the next start brings back: the open
// tabs and their drafts. It runs on the UI goroutine, or once Fyne's loop
// has ended, and may run more than once.
func (w *Window) keepForNextStart() {
	w.reopen.remember(w.tabs)
	if !w.draftsFrozen.Load() {
		for _, t := range w.tabs {
			if t.composer.prompt != nil {
				t.draft.keep()
			}
		}
		// From here on the agents stop and hand their queues back into the
		// editors: kept already, in the queue, and not to be kept twice.
		w.draftsFrozen.Store(true)
	}
	w.flushDrafts()
}

// shutdownAfterPanic runs when the UI goroutine panicked: Fyne's loop is
// gone, so the tabs are kept and the agents stopped here, before the
// panic goes on and ends the app. A second panic on the way must not hide
// the first: it is reported and the rest skipped.
func (w *Window) shutdownAfterPanic(r any) {
	defer func() {
		if r2 := recover(); r2 != nil {
			fmt.Fprintln(os.Stderr, "knightcode-desktop: while stopping after a panic:", r2)
		}
	}()
	fmt.Fprintf(os.Stderr, "knightcode-desktop: panic: %v: keeping the open tabs and stopping the agents\n", r)
	w.loopEnded.Store(true)
	w.keepForNextStart()
	kit.Halt()
	w.installer.Close()
	shutdownAll(w.tabs)
}
