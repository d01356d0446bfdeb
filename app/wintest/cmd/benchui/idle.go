package main

import (
	"fmt"
	"strings"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// idleFigures is the CPU use of the app and of both floors over the same
// stretch.
type idleFigures struct {
	app, focused, unfocused wintest.Usage
	threads                 string // the app's CPU by thread kind
}

// poke focuses the app's window and types a key and BackSpace into its
// editor: an input, so the cursor blinks as after any (the app stops it
// 10 s after the last input), and the draft is as it was.
func (b *bench) poke(w *window) (time.Time, error) {
	if err := w.p.Focus(w.id); err != nil {
		return time.Time{}, err
	}
	if err := w.p.Key("a", "BackSpace"); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}

// focusedIdle measures the app focused and idle, from 1 s after an input
// for b.idle, beside the focused and the unfocused floor.
func (b *bench) focusedIdle(w *window) (idleFigures, time.Time, error) {
	last, err := b.poke(w)
	if err != nil {
		return idleFigures{}, last, err
	}
	time.Sleep(time.Second)
	th0 := wintest.ThreadCPU(w.p.Pid)
	u := measure(b.idle, w, b.entryWin, b.bareWin)
	th1 := wintest.ThreadCPU(w.p.Pid)
	return idleFigures{u[0], u[1], u[2], threads(th0, th1, u[0].Wall)}, last, nil
}

// addFocusedIdle measures focused idle and adds its row (target: the
// focused floor + 1.5 points).
func (b *bench) addFocusedIdle(w *window, what string) (time.Time, error) {
	f, last, err := b.focusedIdle(w)
	if err != nil {
		return last, err
	}
	d := points(f.app, f.focused)
	b.logf("focused idle, %s, %v: app %s; floor focused %s, unfocused %s", what, b.idle, cpu(f.app), cpu(f.focused), cpu(f.unfocused))
	b.logf("  the app by thread: %s", f.threads)
	b.add("1", "focused idle CPU, "+what, "≤ floor + 1.5 pt", fmt.Sprintf("%s (%+.1f pt)", pct(f.app.ProcessFrac()), d),
		pct(f.focused.ProcessFrac()), pct(f.unfocused.ProcessFrac()), verdict(d <= 1.5))
	return last, nil
}

// addQuietIdle waits until 12 s have passed since the last input and
// measures b.quiet: the app must have stopped its cursor by then (target:
// the unfocused floor + 0.5 points).
func (b *bench) addQuietIdle(w *window, last time.Time, what string) {
	if wait := time.Until(last.Add(12 * time.Second)); wait > 0 {
		time.Sleep(wait)
	}
	since := time.Since(last)
	u := measure(b.quiet, w, b.entryWin, b.bareWin)
	d := points(u[0], u[2])
	b.logf("idle %v to %v after the last input, %s, focused: app %s; floor focused %s, unfocused %s",
		since.Round(100*time.Millisecond), (since + u[0].Wall).Round(100*time.Millisecond), what, cpu(u[0]), cpu(u[1]), cpu(u[2]))
	b.add("2", fmt.Sprintf("idle CPU %.0f s after the last input (focused), %s", since.Seconds(), what), "≤ unfocused floor + 0.5 pt",
		fmt.Sprintf("%s (%+.1f pt)", pct(u[0].ProcessFrac()), d), pct(u[1].ProcessFrac()), pct(u[2].ProcessFrac()), verdict(d <= 0.5))
}

// threads formats CPU use by thread kind between two ThreadCPU readings.
func threads(a, b map[string]time.Duration, wall time.Duration) string {
	var parts []string
	for _, k := range []string{"main", "llvmpipe", "other"} {
		parts = append(parts, fmt.Sprintf("%s %s", k, pct(float64(b[k]-a[k])/float64(wall))))
	}
	return strings.Join(parts, ", ")
}
