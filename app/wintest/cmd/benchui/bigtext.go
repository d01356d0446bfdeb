package main

import (
	"fmt"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// bigTextPrompt streams a 500-line reply at about the pace a model (through
// pi) writes one: a line or so a message_update, about 500 of them over
// 12 s, each with the whole message so far. What it costs the app is
// mostly painting: the figure that matters is CPU-seconds over the floor's.
const bigTextPrompt = "[[lines:500:13]][[slow:24]]"

// bigTextMargin is how many CPU-seconds over the focused floor's the app
// may spend streaming the big text (issue 21).
const bigTextMargin = 0.8

// bigText measures the app's CPU-seconds from the prompt to the end of the
// run, beside the floors' over the same seconds.
func (b *bench) bigText() error {
	w, err := b.startPaced("bigtext")
	if err != nil {
		return err
	}
	defer b.stop(w)
	if err := w.p.Focus(w.id); err != nil {
		return err
	}
	at, t0, err := b.send(w, bigTextPrompt)
	if err != nil {
		return err
	}
	th0 := wintest.ThreadCPU(w.p.Pid)
	t1, ok := b.waitRun(w, at, 5*time.Minute)
	if !ok {
		return fmt.Errorf("the big text run did not end within 5 minutes")
	}
	th1 := wintest.ThreadCPU(w.p.Pid)
	marks := wintest.ReadTrace(w.p.Trace)
	frames := marks.Count("draw", t0, t1)
	u := wintest.Between(w.s.At(t0), w.s.At(t1))
	fu := wintest.Between(b.entryWin.s.At(t0), b.entryWin.s.At(t1))
	uu := wintest.Between(b.bareWin.s.At(t0), b.bareWin.s.At(t1))
	b.logf("%s: %v, %d frames drawn (%.1f/s)", bigTextPrompt, u.Wall.Round(time.Millisecond), frames, float64(frames)/u.Wall.Seconds())
	b.logf("CPU: app %s (main %s); floor focused %s, unfocused %s", secs(u.Process), secs(u.Main), secs(fu.Process), secs(uu.Process))
	b.logf("  the app by thread: %s", threads(th0, th1, t1.Sub(t0)))
	settle(w, 20*time.Second)
	if last, ok := b.lastDelta(w, t0, time.Second); ok {
		if lag, _, ok := b.reportOnScreen(w, last, t0); ok {
			b.add("3", "big text: last delta → on screen (draw mark)", "≤ 100 ms", ms(lag), "-", "-", verdict(lag <= 100*time.Millisecond))
		} else {
			b.add("3", "big text: last delta → on screen (draw mark)", "≤ 100 ms", "not seen", "-", "-", "MISS")
		}
	}
	over := (u.Process - fu.Process).Seconds()
	b.add("3", fmt.Sprintf("big text (500 lines, %.0f s): app CPU-s", u.Wall.Seconds()), fmt.Sprintf("≤ floor + %.1f s", bigTextMargin),
		fmt.Sprintf("%s (+%.2f s; main %s)", secs(u.Process), over, secs(u.Main)), secs(fu.Process), secs(uu.Process), verdict(over <= bigTextMargin))
	b.info("3", "big text: frames drawn", fmt.Sprintf("%d (%.1f/s)", frames, float64(frames)/u.Wall.Seconds()), "-", "-")
	b.screenshot(w)
	return nil
}
