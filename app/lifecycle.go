package app

import (
	"fmt"
	"os"
)

// Quit shuts the agent down cleanly and closes the window. It runs once,
// however many ways (close button, SIGTERM, menu) ask at the same time.
func (w *Window) Quit() {
	w.quitOnce.Do(w.quit)
}

// quitApp ends Fyne's loop. The loop can also end by itself while the
// agent shuts down (the X display went away): Fyne then runs this on the
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
	w.frames.Stop()
	w.prompt.Editor.StopBlinkTimer()
	w.tickBash(false)
	if w.controller != nil {
		// Off the UI goroutine: shutting down waits for the agent, and for
		// goroutines that may be waiting for the UI.
		c := w.controller
		go func() {
			w.bg.stop()
			c.Shutdown()
			// Once Fyne's loop has ended, fyne.Do would run Quit here, on
			// a goroutine, after the graphics library is gone.
			if !w.loopEnded.Load() {
				uiDo(w.quitApp)
			}
		}()
		return
	}
	go func() {
		w.bg.stop()
		if !w.loopEnded.Load() {
			uiDo(w.quitApp)
		}
	}()
}

// do runs f on the UI goroutine, soon; it never waits. Once Fyne's loop
// has ended it does nothing: Fyne would then run f at once on the calling
// goroutine, with the window and the graphics library gone.
func (w *Window) do(f func()) {
	if w.loopEnded.Load() {
		return
	}
	uiDo(func() {
		if !w.loopEnded.Load() {
			f()
		}
	})
}

// shutdown makes sure the agent is gone once the app loop has ended,
// whichever way it ended: the window's background work is cancelled and
// waited for, then the agent is stopped.
func (w *Window) shutdown() {
	w.loopEnded.Store(true)
	w.frames.Stop()
	w.prompt.Editor.StopBlinkTimer()
	if w.stopBashTick != nil {
		w.stopBashTick()
		w.stopBashTick = nil
	}
	w.bg.stop()
	w.messages.close()
	if w.controller != nil {
		w.controller.Shutdown()
	}
}
