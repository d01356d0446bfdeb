package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// idleSmall is context for the idle rows: the app with a 150-entry
// (0.6 MB) transcript, focused and then unfocused.
func (b *bench) idleSmall() error {
	w, err := b.startApp("small", b.fake, nil, "--session", b.small)
	if err != nil {
		return err
	}
	defer b.stop(w)
	if _, ok := w.tr.WaitMark("items", time.Time{}, func(m wintest.Mark) bool { return m.N() > 0 }, 2*time.Minute, 20*time.Millisecond); !ok {
		return fmt.Errorf("the transcript never arrived")
	}
	settle(w, 30*time.Second)
	fi, _ := os.Stat(b.small)
	what := fmt.Sprintf("%s (%.1f MB)", filepath.Base(b.small), float64(fi.Size())/1e6)
	b.logf("transcript: %s", what)
	f, _, err := b.focusedIdle(w)
	if err != nil {
		return err
	}
	b.logf("focused idle, %v: app %s; floor focused %s, unfocused %s", b.idle, cpu(f.app), cpu(f.focused), cpu(f.unfocused))
	b.logf("  the app by thread: %s", f.threads)
	b.screenshot(w)
	b.info("1", "focused idle CPU, 150-entry session", fmt.Sprintf("%s (%+.1f pt)", pct(f.app.ProcessFrac()), points(f.app, f.focused)),
		pct(f.focused.ProcessFrac()), pct(f.unfocused.ProcessFrac()))

	// Unfocused: the bare window (a Label: nothing in it blinks) takes the
	// focus of the app's display.
	if err := b.bareWin.p.Focus(b.bareWin.id); err != nil {
		return err
	}
	time.Sleep(2 * time.Second)
	u := measure(b.idle, w, b.entryWin, b.bareWin)
	b.logf("unfocused idle, %v: app %s; floor focused %s, unfocused %s", b.idle, cpu(u[0]), cpu(u[1]), cpu(u[2]))
	b.info("2", "unfocused idle CPU, 150-entry session", fmt.Sprintf("%s (%+.1f pt)", pct(u[0].ProcessFrac()), points(u[0], u[2])),
		pct(u[1].ProcessFrac()), pct(u[2].ProcessFrac()))
	mem := w.s.Now().Mem
	b.info("4", "RSS, 150-entry session", mb(mem.RSS), mb(b.entryWin.s.Now().Mem.RSS), mb(b.bareWin.s.Now().Mem.RSS))
	return nil
}
