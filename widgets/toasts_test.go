package widgets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// fakeClock drives a ToastLayer's timers and fades by hand.
type fakeClock struct {
	now    time.Time
	timers []*fakeTimer
	fades  []*fakeFade
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

type fakeFade struct {
	tick    func(float32)
	stopped bool
}

func newFakeClock(l *ToastLayer) *fakeClock {
	c := &fakeClock{now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	l.now = func() time.Time { return c.now }
	l.after = func(d time.Duration, f func()) func() {
		t := &fakeTimer{at: c.now.Add(d), f: f}
		c.timers = append(c.timers, t)
		return func() { t.stopped = true }
	}
	l.animate = func(d time.Duration, tick func(float32)) func() {
		a := &fakeFade{tick: tick}
		c.fades = append(c.fades, a)
		return func() { a.stopped = true }
	}
	return c
}

// advance moves time on, firing the timers that come due.
func (c *fakeClock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	for _, t := range slices.Clone(c.timers) {
		if !t.stopped && !t.at.After(c.now) {
			t.stopped = true
			t.f()
		}
	}
}

// running counts timers and fades not yet finished or stopped.
func (c *fakeClock) running() int {
	n := 0
	for _, t := range c.timers {
		if !t.stopped {
			n++
		}
	}
	for _, f := range c.fades {
		if !f.stopped {
			n++
		}
	}
	return n
}

// finish ends every running fade, as the driver does with a last tick of 1.
func (c *fakeClock) finish() {
	for _, f := range c.fades {
		if !f.stopped {
			f.stopped = true
			f.tick(1)
		}
	}
}

// shownTexts lists the visible toasts' texts, newest first.
func (l *ToastLayer) shownTexts() []string {
	var s []string
	for _, t := range l.toasts {
		s = append(s, t.notice.Text)
	}
	return s
}

func toastWindow(t *testing.T, l *ToastLayer) (fyne.Window, *int) {
	taps := 0
	under := widget.NewButton("content under the toasts", func() { taps++ })
	w := test.NewTempWindow(t, container.NewStack(under, l.Object()))
	w.Resize(fyne.NewSize(600, 400))
	return w, &taps
}

func TestToastsStackAndHistory(t *testing.T) {
	test.NewTempApp(t)
	l := NewToastLayer()
	clock := newFakeClock(l)
	w, _ := toastWindow(t, l)

	l.Show("Extension loaded: git-status", model.NoticeInfo)
	l.ShowNotice(model.Notice{Text: "3 files have long lines; run gofmt and go vet before you commit this change", Level: model.NoticeWarning, Source: "lint"})
	l.Show("Could not save session: <b>disk full</b> & the write was retried 3 times", model.NoticeError)
	l.Show("Newest info", model.NoticeInfo)

	if got := l.shownTexts(); len(got) != 3 || got[0] != "Newest info" {
		t.Fatalf("shown %q, want the 3 newest, newest first", got)
	}
	h := l.History()
	if len(h) != 4 || h[0].Text != "Extension loaded: git-status" || h[1].Source != "lint" || !h[0].Time.Equal(clock.now) {
		t.Fatalf("history %+v", h)
	}
	// The pushed-out toast leaves no timer behind.
	if n := clock.running(); n != 3 {
		t.Fatalf("%d clocks running for 3 toasts", n)
	}
	test.AssertRendersToMarkup(t, "toasts/three.xml", w.Canvas())
}

func TestToastsFadeAndIdle(t *testing.T) {
	test.NewTempApp(t)
	l := NewToastLayer()
	clock := newFakeClock(l)
	toastWindow(t, l)

	l.Show("saved", model.NoticeInfo)
	l.Show("agent is slow", model.NoticeWarning)
	clock.advance(3900 * time.Millisecond)
	if len(clock.fades) != 0 {
		t.Fatal("info toast faded before 4 s")
	}
	clock.advance(200 * time.Millisecond)
	if len(clock.fades) != 1 {
		t.Fatalf("%d fades after 4.1 s, want the info toast's", len(clock.fades))
	}
	info := l.toasts[1]
	clock.fades[0].tick(0.5)
	if info.alpha != 0.5 || info.icon.Translucency != 0.5 {
		t.Fatalf("alpha %v, icon translucency %v mid-fade", info.alpha, info.icon.Translucency)
	}
	for _, c := range []fyne.CanvasObject{info.bg, info.lines[0]} {
		var a uint32
		switch o := c.(type) {
		case *canvas.Rectangle:
			_, _, _, a = o.FillColor.RGBA()
		case *canvas.Text:
			_, _, _, a = o.Color.RGBA()
		}
		if a == 0 || a > 0xffff/2+0x100 {
			t.Fatalf("%T alpha %x mid-fade", c, a)
		}
	}
	clock.finish()
	if got := l.shownTexts(); !slices.Equal(got, []string{"agent is slow"}) {
		t.Fatalf("after the fade: %q", got)
	}
	clock.advance(3 * time.Second)
	if len(clock.fades) != 1 {
		t.Fatal("warning faded before 8 s")
	}
	clock.advance(time.Second)
	clock.finish()
	if len(l.toasts) != 0 {
		t.Fatalf("still shown: %q", l.shownTexts())
	}
	if n := clock.running(); n != 0 {
		t.Fatalf("idle layer has %d clocks running", n)
	}
}

func TestToastsClickDismissesAndPassesThrough(t *testing.T) {
	test.NewTempApp(t)
	l := NewToastLayer()
	clock := newFakeClock(l)
	w, taps := toastWindow(t, l)

	// Away from the toasts a click reaches the content under the layer.
	test.TapCanvas(w.Canvas(), fyne.NewPos(20, 380))
	if *taps != 1 {
		t.Fatal("the layer blocked a click on the content")
	}
	l.Show("first", model.NoticeInfo)
	l.Show("second", model.NoticeError)
	top := l.toasts[0]
	test.TapCanvas(w.Canvas(), top.Position().AddXY(5, 5))
	if *taps != 1 {
		t.Fatal("a click on a toast reached the content")
	}
	if got := l.shownTexts(); !slices.Equal(got, []string{"first"}) {
		t.Fatalf("after clicking the newest: %q", got)
	}
	// Dismissing mid-fade stops the fade.
	clock.advance(4 * time.Second)
	test.Tap(l.toasts[0])
	if len(l.toasts) != 0 || clock.running() != 0 {
		t.Fatalf("toasts %q, clocks %d", l.shownTexts(), clock.running())
	}
}

func TestToastsRepeatCountsAndHistoryCap(t *testing.T) {
	test.NewTempApp(t)
	l := NewToastLayer()
	clock := newFakeClock(l)
	toastWindow(t, l)

	l.Show("other", model.NoticeInfo)
	for i := 0; i < 3; i++ {
		l.ShowNotice(model.Notice{Text: "timeout", Level: model.NoticeError, Source: "ext"})
		clock.advance(5 * time.Second)
		clock.finish()
	}
	if len(l.toasts) != 1 || l.toasts[0].text() != "ext: timeout (×3)" {
		t.Fatalf("shown %q", l.shownTexts())
	}
	// Each repeat restarts the 8 s.
	clock.advance(2 * time.Second)
	if len(clock.fades) != 1 { // only "other" has faded
		t.Fatalf("%d fades", len(clock.fades))
	}
	// A timer that fired just before its toast was rescheduled does nothing.
	clock.timers[1].f()
	if len(clock.fades) != 1 {
		t.Fatal("a stale timer started a fade")
	}
	for i := 0; i < 600; i++ {
		l.Show(fmt.Sprint("n", i), model.NoticeInfo)
	}
	h := l.History()
	if len(h) != toastHistoryCap || h[len(h)-1].Text != "n599" || h[0].Text != "n100" {
		t.Fatalf("history of %d from %q to %q", len(h), h[0].Text, h[len(h)-1].Text)
	}
}

func TestWrapPlain(t *testing.T) {
	test.NewTempApp(t)
	size := float32(14)
	lines := wrapPlain("a\tb\x1b[31m  c\n\n"+strings.Repeat("x", 200), 100, size, fyne.TextStyle{}, 8)
	if lines[0] != "a b[31m c" || lines[1] != "" {
		t.Fatalf("lines %q", lines)
	}
	for _, s := range lines {
		if w := fyne.MeasureText(s, size, fyne.TextStyle{}).Width; w > 100 {
			t.Fatalf("%q is %v wide", s, w)
		}
	}
	long := wrapPlain(strings.Repeat("word ", 400), 100, size, fyne.TextStyle{}, 8)
	if len(long) != 8 || !strings.HasSuffix(long[7], "…") {
		t.Fatalf("capped lines %q", long)
	}
	if got := wrapPlain("", 100, size, fyne.TextStyle{}, 8); len(got) != 1 || got[0] != "" {
		t.Fatalf("empty text gives %q", got)
	}
}

func TestToastShots(t *testing.T) {
	saveShots(t, "toasts", fyne.NewSize(640, 420), func() fyne.CanvasObject {
		l := NewToastLayer()
		newFakeClock(l)
		l.Show("Extension loaded: git-status", model.NoticeInfo)
		l.ShowNotice(model.Notice{Text: "3 files have long lines; run gofmt and go vet before you commit this change", Level: model.NoticeWarning, Source: "lint"})
		l.Show("Could not save session: <b>disk full</b> & the write was retried 3 times. The draft is kept in memory until there is room again.", model.NoticeError)
		bg := widget.NewLabel(strings.Repeat("Content under the toast layer. ", 40))
		bg.Wrapping = fyne.TextWrapWord
		return container.NewStack(bg, l.Object())
	})
	saveShots(t, "toasts-fading", fyne.NewSize(640, 200), func() fyne.CanvasObject {
		l := NewToastLayer()
		clock := newFakeClock(l)
		l.Show("Half faded: the info toast 4 s after it appeared", model.NoticeInfo)
		clock.advance(5 * time.Second)
		clock.fades[0].tick(0.5)
		bg := widget.NewLabel(strings.Repeat("Content under the toast layer. ", 20))
		bg.Wrapping = fyne.TextWrapWord
		return container.NewStack(bg, l.Object())
	})
}
