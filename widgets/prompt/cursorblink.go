package prompt

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"knightcode.ai/desktop/widgets/kit"
)

// CursorBlinkTimeout is how long the editor's cursor blinks after the last
// input before it stays solid: GNOME's cursor-blink-timeout (10 s).
const CursorBlinkTimeout = 10 * time.Second

// Why the blink is stopped the way it is.
//
// Fyne 2.7.1's Entry blinks its cursor with a fyne.Animation that repaints
// the whole window about twelve times a second for as long as the entry is
// focused (widget/entry_cursor_anim.go). The animation is private. The entry
// starts it from entryContentRenderer.Refresh whenever the entry is focused
// and fyne.CurrentApp().Settings().ShowAnimations() is true, paints the
// cursor solid when that is false, and stops it only when a Refresh finds
// the entry unfocused (widget/entry.go). Fyne has no setter for
// ShowAnimations, and wrapping the App or its Settings for good is unsafe:
// app/app_desktop_darwin.go type-asserts Settings().(*settings) when macOS
// changes theme.
//
// So, on the UI goroutine and for the span of one synchronous call, the
// editor installs a wrapper App whose Settings().ShowAnimations() is false
// and runs the embedded Entry's FocusLost then FocusGained: the first
// Refresh sees the entry unfocused and stops the animation, the second sees
// it focused with animations off and paints the cursor solid. Then the real
// App goes back. The canvas never hears of it: the editor keeps the focus.
// Any input (key, rune, shortcut, click, focus gain) refreshes the entry
// with the real App again, which restarts Fyne's own blink, and restarts
// the count.
//
// The wait is one timer, reset on input and stopped when the editor loses
// the focus: nothing ticks while the window is idle or in the background.
// An own cursor drawn over the entry was the other way; it would still have
// to stop Fyne's animation, which only the focus calls reach.

// blinkClock is the time the idle timer uses; tests drive a fake one.
type blinkClock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) blinkTimer
}

// blinkTimer is what the editor keeps of a pending AfterFunc.
type blinkTimer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) blinkTimer { return time.AfterFunc(d, f) }

// cursorBlink is the editor's blink state. Only the UI goroutine touches
// it; the timer's own goroutine only hands work to the UI goroutine.
type cursorBlink struct {
	off      bool // the "Blinking cursor" setting is off: always solid
	still    bool // the agent works (SetStreaming): solid until it is done
	focused  bool // the editor has the keyboard (the Entry's own flag is private)
	solid    bool // Fyne's animation is stopped and the cursor painted solid
	applying bool // inside withoutAnimations
	last     time.Time
	timer    blinkTimer
	clock    blinkClock // nil: the system clock
}

func (b *cursorBlink) now() time.Time {
	if b.clock == nil {
		b.clock = systemClock{}
	}
	return b.clock.Now()
}

// SetCursorBlink switches the blinking cursor on (the default) or off; off,
// the cursor is always solid.
func (e *PromptEditor) SetCursorBlink(on bool) {
	b := &e.blink
	if b.off == !on {
		return
	}
	b.off = !on
	if !b.focused {
		return
	}
	if on {
		e.wake()
		return
	}
	e.stopTimer()
	e.stopBlinking()
}

// CursorBlink reports what SetCursorBlink last set.
func (e *PromptEditor) CursorBlink() bool { return !e.blink.off }

// wake is any input: the cursor blinks again and the count starts over.
func (e *PromptEditor) wake() {
	b := &e.blink
	if !b.focused || b.off {
		return
	}
	b.last = b.now()
	if b.still {
		return // counted from here once the agent is done
	}
	if b.solid {
		b.solid = false
		e.Entry.Refresh() // with the real App: Fyne starts its blink again
	}
	if b.timer == nil {
		b.timer = b.clock.AfterFunc(CursorBlinkTimeout, e.blinkTimerFired)
	} else {
		b.timer.Reset(CursorBlinkTimeout)
	}
}

// input runs an input handler: the blink starts again, and with blinking
// off the handler's own refreshes (the Entry's, out of the editor's reach)
// keep the cursor solid.
func (e *PromptEditor) input(handle func()) {
	e.wake()
	e.keepStill(handle)
}

// blinkTimerFired runs on the timer's goroutine.
func (e *PromptEditor) blinkTimerFired() {
	do := e.RunOnUI
	if do == nil {
		do = kit.Do
	}
	do(e.idle)
}

// holdCursor keeps the cursor solid while the agent works. Its output
// repaints the window as it arrives, and every step of Fyne's blink is one
// more repaint of the whole window: a dozen a second, each as costly as
// the text on screen on a software renderer. When the agent is done the
// cursor blinks again if the last input was less than CursorBlinkTimeout
// ago, for what is left of it.
func (e *PromptEditor) holdCursor(hold bool) {
	b := &e.blink
	if b.still == hold {
		return
	}
	b.still = hold
	if !b.focused || b.off {
		return
	}
	if hold {
		e.stopTimer()
		if !b.solid {
			e.stopBlinking()
		}
		return
	}
	left := CursorBlinkTimeout - b.now().Sub(b.last)
	if left <= 0 {
		return
	}
	b.solid = false
	e.Entry.Refresh() // with the real App: Fyne starts its blink again
	if b.timer == nil {
		b.timer = b.clock.AfterFunc(left, e.blinkTimerFired)
	} else {
		b.timer.Reset(left)
	}
}

// idle runs on the UI goroutine once the timer has fired.
func (e *PromptEditor) idle() {
	b := &e.blink
	if !b.focused || b.off || b.still || b.solid {
		return
	}
	if b.now().Sub(b.last) < CursorBlinkTimeout {
		return // input came while this was on its way; it reset the timer
	}
	e.stopBlinking()
}

// StopBlinkTimer stops a pending idle timer, for a window that is closing:
// its work must not reach the UI goroutine once the loop has ended. Input
// would start it again.
func (e *PromptEditor) StopBlinkTimer() { e.stopTimer() }

func (e *PromptEditor) stopTimer() {
	if e.blink.timer != nil {
		e.blink.timer.Stop()
	}
}

// stopBlinking stops Fyne's cursor animation and paints the cursor solid;
// see the note at the top of this file.
func (e *PromptEditor) stopBlinking() {
	e.blink.solid = true
	e.withoutAnimations(func() {
		e.Entry.FocusLost()   // the one call that stops a running blink
		e.Entry.FocusGained() // focused again, painted solid
	})
	// FocusLost forgot a held Shift, which Shift+arrow selection needs.
	if e.currentModifiers()&fyne.KeyModifierShift != 0 {
		e.Entry.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	}
}

// keepStill runs f, which refreshes the entry, without restarting the blink
// when the cursor is solid: a draft the app or an extension sets is not
// input.
func (e *PromptEditor) keepStill(f func()) {
	if b := &e.blink; b.solid && b.focused && !b.applying {
		e.withoutAnimations(f)
		return
	}
	f()
}

// withoutAnimations runs f with fyne.CurrentApp() reporting
// ShowAnimations() false, then puts the App back.
func (e *PromptEditor) withoutAnimations(f func()) {
	b := &e.blink
	if b.applying {
		f()
		return
	}
	real := fyne.CurrentApp()
	b.applying = true
	fyne.SetCurrentApp(&stillApp{App: real, settings: stillSettings{real.Settings()}})
	defer func() {
		fyne.SetCurrentApp(real)
		b.applying = false
	}()
	f()
}

// stillApp is the running App with animations off. It is current only
// while withoutAnimations runs; everything but Settings is the real App's.
type stillApp struct {
	fyne.App
	settings stillSettings
}

func (a *stillApp) Settings() fyne.Settings { return a.settings }

type stillSettings struct{ fyne.Settings }

func (stillSettings) ShowAnimations() bool { return false }
