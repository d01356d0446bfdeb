package prompt

import (
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// blinkFakeClock is a blinkClock the test moves by hand. Advance fires the due
// timers on the calling goroutine, as time.AfterFunc's goroutine would; the
// test driver runs fyne.Do work right there.
type blinkFakeClock struct {
	now    time.Time
	timers []*blinkFakeTimer
	fired  int
}

type blinkFakeTimer struct {
	c     *blinkFakeClock
	at    time.Time
	f     func()
	armed bool
}

func (c *blinkFakeClock) Now() time.Time { return c.now }

func (c *blinkFakeClock) AfterFunc(d time.Duration, f func()) blinkTimer {
	t := &blinkFakeTimer{c: c, at: c.now.Add(d), f: f, armed: true}
	c.timers = append(c.timers, t)
	return t
}

func (t *blinkFakeTimer) Reset(d time.Duration) bool {
	was := t.armed
	t.at, t.armed = t.c.now.Add(d), true
	return was
}

func (t *blinkFakeTimer) Stop() bool {
	was := t.armed
	t.armed = false
	return was
}

// pending counts the armed timers.
func (c *blinkFakeClock) pending() (n int) {
	for _, t := range c.timers {
		if t.armed {
			n++
		}
	}
	return n
}

func (c *blinkFakeClock) Advance(d time.Duration) {
	end := c.now.Add(d)
	for {
		var next *blinkFakeTimer
		for _, t := range c.timers {
			if t.armed && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		c.now, next.armed = next.at, false
		c.fired++
		next.f()
	}
	c.now = end
}

// animDriver records which animations run. The test driver's own
// StartAnimation ticks an animation once and forgets it, so it cannot say.
type animDriver struct {
	fyne.Driver
	running map[*fyne.Animation]bool
}

func (d *animDriver) StartAnimation(a *fyne.Animation) {
	d.running[a] = true
	d.Driver.StartAnimation(a)
}

func (d *animDriver) StopAnimation(a *fyne.Animation) {
	delete(d.running, a)
	d.Driver.StopAnimation(a)
}

type animApp struct {
	fyne.App
	d *animDriver
}

func (a *animApp) Driver() fyne.Driver { return a.d }

type blinkRig struct {
	t     *testing.T
	app   fyne.App // the test app
	rec   *animApp
	e     *PromptEditor
	w     fyne.Window
	clock *blinkFakeClock
}

// newBlinkRig shows a focused editor on a fake clock, with the animations
// recorded. The test app's Settings().ShowAnimations() is true, so the
// entry starts its cursor animation as it would in the real app.
func newBlinkRig(t *testing.T) *blinkRig {
	t.Helper()
	a := test.NewTempApp(t)
	if !a.Settings().ShowAnimations() {
		t.Fatal("the test app reports ShowAnimations false: the entry would never blink here")
	}
	r := &blinkRig{t: t, app: a, e: NewPromptEditor(), clock: &blinkFakeClock{now: time.Unix(1_700_000_000, 0)}}
	r.e.blink.clock = r.clock
	r.w = test.NewTempWindow(t, r.e) // test.NewWindow wants the test app itself
	r.w.Resize(fyne.NewSize(360, 120))
	r.rec = &animApp{App: a, d: &animDriver{Driver: a.Driver(), running: map[*fyne.Animation]bool{}}}
	fyne.SetCurrentApp(r.rec)
	t.Cleanup(func() { fyne.SetCurrentApp(a) })
	r.w.Canvas().Focus(r.e)
	return r
}

// blinking reports whether the cursor animation runs.
func (r *blinkRig) blinking() bool { return len(r.rec.d.running) > 0 }

// cursor finds the entry's cursor through the render tree: the rectangle
// beside the text and the placeholder in the entry's inner content.
func (r *blinkRig) cursor() *canvas.Rectangle {
	var found *canvas.Rectangle
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil {
			return
		}
		switch o := o.(type) {
		case fyne.Widget:
			objs := test.WidgetRenderer(o).Objects()
			if len(objs) == 3 {
				_, t1 := objs[0].(*widget.RichText)
				_, t2 := objs[1].(*widget.RichText)
				if c, ok := objs[2].(*canvas.Rectangle); ok && t1 && t2 {
					found = c
					return
				}
			}
			for _, c := range objs {
				walk(c)
			}
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		}
	}
	walk(r.e)
	if found == nil {
		r.t.Fatal("no cursor in the editor's render tree")
	}
	return found
}

// checkSolid says the cursor shows, fully opaque in the primary colour, and
// no animation runs.
func (r *blinkRig) checkSolid(when string) {
	r.t.Helper()
	if r.blinking() {
		r.t.Fatalf("%s: the cursor still blinks", when)
	}
	c := r.cursor()
	if !c.Visible() {
		r.t.Fatalf("%s: the cursor is hidden", when)
	}
	want := theme.Color(theme.ColorNamePrimary)
	if !sameColor(c.FillColor, want) {
		r.t.Fatalf("%s: cursor colour %v, want the solid primary %v", when, c.FillColor, want)
	}
	if _, _, _, alpha := c.FillColor.RGBA(); alpha != 0xffff {
		r.t.Fatalf("%s: cursor alpha %#x, want opaque", when, alpha)
	}
	if fyne.CurrentApp() != r.rec {
		r.t.Fatalf("%s: the current app was not put back", when)
	}
	if r.w.Canvas().Focused() != r.e {
		r.t.Fatalf("%s: the editor lost the canvas's focus", when)
	}
}

func (r *blinkRig) checkBlinking(when string) {
	r.t.Helper()
	if !r.blinking() {
		r.t.Fatalf("%s: the cursor does not blink", when)
	}
	if !r.cursor().Visible() {
		r.t.Fatalf("%s: the cursor is hidden", when)
	}
	if r.clock.pending() != 1 {
		r.t.Fatalf("%s: %d idle timers armed, want 1", when, r.clock.pending())
	}
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func TestPromptEditorCursorStopsBlinkingWhenIdle(t *testing.T) {
	r := newBlinkRig(t)
	r.checkBlinking("focused")
	test.Type(r.e, "hello")
	r.clock.Advance(CursorBlinkTimeout - time.Millisecond)
	r.checkBlinking("just before the timeout")
	r.clock.Advance(time.Millisecond)
	r.checkSolid("after the timeout")
	if n := len(r.clock.timers); n != 1 {
		t.Fatalf("%d timers made, want one reused", n)
	}
	// Idle is idle: nothing is armed and nothing fires from here on.
	fired := r.clock.fired
	if r.clock.pending() != 0 {
		t.Fatalf("%d timers still armed while idle", r.clock.pending())
	}
	r.clock.Advance(time.Hour)
	if r.clock.fired != fired {
		t.Fatalf("%d timer callbacks while idle", r.clock.fired-fired)
	}
	r.checkSolid("an hour later")
	if r.e.Text() != "hello" {
		t.Fatalf("the draft changed: %q", r.e.Text())
	}
}

func TestPromptEditorCursorBlinksAgainOnInput(t *testing.T) {
	inputs := map[string]func(e *PromptEditor){
		"rune":     func(e *PromptEditor) { e.TypedRune('x') },
		"key":      func(e *PromptEditor) { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft}) },
		"key down": func(e *PromptEditor) { e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft}) },
		"shortcut": func(e *PromptEditor) { e.TypedShortcut(&fyne.ShortcutSelectAll{}) },
		"click": func(e *PromptEditor) {
			e.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
			e.MouseUp(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
		},
		"focus": func(e *PromptEditor) { e.FocusLost(); e.FocusGained() },
	}
	for name, input := range inputs {
		t.Run(name, func(t *testing.T) {
			r := newBlinkRig(t)
			r.clock.Advance(CursorBlinkTimeout)
			r.checkSolid("idle")
			input(r.e)
			r.checkBlinking("after the input")
			// The count starts again at the input.
			r.clock.Advance(CursorBlinkTimeout / 2)
			input(r.e)
			r.clock.Advance(CursorBlinkTimeout - time.Millisecond)
			r.checkBlinking("a timeout after the first input")
			r.clock.Advance(time.Millisecond)
			r.checkSolid("a timeout after the last input")
		})
	}
}

// A timer that fired just before a key must not stop the blink the key
// started: the stop is checked on the UI goroutine against the last input.
func TestPromptEditorCursorLateTimerAfterInput(t *testing.T) {
	r := newBlinkRig(t)
	r.clock.now = r.clock.now.Add(CursorBlinkTimeout) // due, not yet delivered
	r.e.TypedRune('a')
	r.e.blinkTimerFired()
	r.checkBlinking("a late timer after a key")
}

func TestPromptEditorCursorBlinkSettingOff(t *testing.T) {
	r := newBlinkRig(t)
	r.checkBlinking("focused")
	r.e.SetCursorBlink(false)
	r.checkSolid("setting off")
	if r.clock.pending() != 0 {
		t.Fatal("a timer is armed with blinking off")
	}
	test.Type(r.e, "typing")
	r.e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	r.e.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
	r.checkSolid("typing with the setting off")
	r.e.FocusLost()
	r.e.FocusGained()
	r.checkSolid("focus again with the setting off")
	if r.clock.pending() != 0 || r.clock.fired != 0 {
		t.Fatalf("timers with blinking off: %d armed, %d fired", r.clock.pending(), r.clock.fired)
	}
	r.e.SetCursorBlink(true)
	r.checkBlinking("setting back on")
}

// A fresh editor with the setting off never starts the animation.
func TestPromptEditorCursorBlinkOffBeforeFocus(t *testing.T) {
	r := newBlinkRig(t)
	r.e.FocusLost()
	r.e.SetCursorBlink(false)
	r.w.Canvas().Focus(nil)
	r.w.Canvas().Focus(r.e)
	r.checkSolid("focused with the setting off")
}

func TestPromptEditorCursorNoTimerUnfocused(t *testing.T) {
	r := newBlinkRig(t)
	r.w.Canvas().Unfocus()
	if r.blinking() || r.clock.pending() != 0 {
		t.Fatalf("unfocused: blinking %v, %d timers armed", r.blinking(), r.clock.pending())
	}
	r.e.TypedRune('x') // forwarded by the slash completion, say: not the editor's focus
	r.clock.Advance(time.Hour)
	if r.clock.fired != 0 || r.blinking() {
		t.Fatalf("unfocused: %d timer callbacks, blinking %v", r.clock.fired, r.blinking())
	}
	r.w.Canvas().Focus(r.e)
	r.checkBlinking("focused again")
}

// What is not input leaves a solid cursor solid, even what restarts Fyne's
// animation behind the editor's back (a theme change refreshes the entry's
// inner content before the editor).
func TestPromptEditorCursorStaysSolid(t *testing.T) {
	r := newBlinkRig(t)
	r.clock.Advance(CursorBlinkTimeout)
	r.checkSolid("idle")
	r.e.SetText("from an extension")
	r.checkSolid("SetText")
	r.e.Append(" and more")
	r.checkSolid("Append")
	r.e.CursorColumn = 3
	r.e.Refresh()
	r.checkSolid("Refresh")
	r.e.SetStreaming(true)
	r.checkSolid("SetStreaming")
	r.w.Resize(fyne.NewSize(300, 140))
	r.checkSolid("Resize")
	r.app.Settings().SetTheme(theme.LightTheme())
	r.checkSolid("theme change")
	if r.clock.pending() != 0 {
		t.Fatalf("%d timers armed while idle", r.clock.pending())
	}
	if r.e.Text() != "from an extension and more" {
		t.Fatalf("text %q", r.e.Text())
	}
}

func TestPromptEditorStopBlinkTimer(t *testing.T) {
	r := newBlinkRig(t)
	r.e.StopBlinkTimer()
	r.clock.Advance(time.Hour)
	if r.clock.pending() != 0 || r.clock.fired != 0 {
		t.Fatalf("after StopBlinkTimer: %d armed, %d fired", r.clock.pending(), r.clock.fired)
	}
}

// While the agent streams the cursor is solid, typing included; when it is
// done the cursor blinks for what is left of the timeout after the last
// input.
func TestPromptEditorCursorSolidWhileStreaming(t *testing.T) {
	r := newBlinkRig(t)
	r.checkBlinking("focused")
	r.e.SetStreaming(true)
	r.checkSolid("streaming")
	if r.clock.pending() != 0 {
		t.Fatalf("%d timers armed while streaming", r.clock.pending())
	}
	r.clock.Advance(CursorBlinkTimeout / 2)
	test.Type(r.e, "steer")
	r.e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	r.checkSolid("typing while streaming")
	r.e.FocusLost()
	r.e.FocusGained()
	r.checkSolid("focus again while streaming")
	r.clock.Advance(CursorBlinkTimeout / 2)
	r.e.SetStreaming(false)
	r.checkBlinking("done, half a timeout after the last input")
	r.clock.Advance(CursorBlinkTimeout/2 - time.Millisecond)
	r.checkBlinking("just before the timeout since the last input")
	r.clock.Advance(time.Millisecond)
	r.checkSolid("a timeout after the last input")
	if r.e.Text() != "steer" {
		t.Fatalf("the draft is %q", r.e.Text())
	}
}

// A stream longer than the timeout without input leaves the cursor solid
// and nothing armed.
func TestPromptEditorCursorStaysSolidAfterALongStream(t *testing.T) {
	r := newBlinkRig(t)
	r.e.SetStreaming(true)
	r.clock.Advance(2 * CursorBlinkTimeout)
	r.e.SetStreaming(false)
	r.checkSolid("done, long after the last input")
	if r.clock.pending() != 0 {
		t.Fatalf("%d timers armed after the stream", r.clock.pending())
	}
	r.e.TypedRune('x')
	r.checkBlinking("typing after the stream")
}
