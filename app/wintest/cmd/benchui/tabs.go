package main

import (
	"fmt"
	"slices"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// extraTabs are the tabs Ctrl+T adds to the first: eight in all.
const extraTabs = 7

// tabSwitches is how many Ctrl+Tab presses are timed.
const tabSwitches = 16

// tabs measures what a tab costs: unfocused idle CPU and RSS with one tab,
// then with eight (Ctrl+T typed seven times, each with its own fake agent),
// and how soon a Ctrl+Tab is painted.
func (b *bench) tabs() error {
	w, err := b.startApp("tabs", b.fake, nil, "--no-session")
	if err != nil {
		return err
	}
	defer b.stop(w)
	settle(w, 30*time.Second)
	one, oneRSS, err := b.unfocusedIdle(w)
	if err != nil {
		return err
	}
	b.logf("unfocused idle, one tab, %v: app %s, RSS %s", b.idle, cpu(one[0]), mb(oneRSS))

	if err := w.p.Focus(w.id); err != nil {
		return err
	}
	time.Sleep(time.Second)
	for i := 1; i <= extraTabs; i++ {
		sent := time.Now()
		if _, err := w.p.Xdotool("key", "ctrl+t"); err != nil {
			return err
		}
		if _, ok := w.tr.WaitMark("tab", sent, func(m wintest.Mark) bool { return m.N() == i }, 30*time.Second, time.Millisecond); !ok {
			return fmt.Errorf("Ctrl+T did not open tab %d", i+1)
		}
	}
	settle(w, 60*time.Second)

	var switchToPaint, keyToPaint []time.Duration
	for i := 0; i < tabSwitches; i++ {
		time.Sleep(300 * time.Millisecond)
		sent := time.Now()
		if _, err := w.p.Xdotool("key", "ctrl+Tab"); err != nil {
			return err
		}
		shown, ok := w.tr.WaitMark("tab", sent, nil, 5*time.Second, 200*time.Microsecond)
		if !ok {
			return fmt.Errorf("Ctrl+Tab %d switched no tab", i+1)
		}
		painted, ok := w.tr.WaitMark("painted", shown.T, nil, 5*time.Second, 200*time.Microsecond)
		if !ok {
			return fmt.Errorf("the tab shown by Ctrl+Tab %d was never painted", i+1)
		}
		switchToPaint = append(switchToPaint, painted.T.Sub(shown.T))
		keyToPaint = append(keyToPaint, painted.T.Sub(sent))
	}
	slices.Sort(switchToPaint)
	slices.Sort(keyToPaint)
	settle(w, 30*time.Second)
	b.screenshot(w)
	eight, eightRSS, err := b.unfocusedIdle(w)
	if err != nil {
		return err
	}
	b.logf("unfocused idle, %d tabs, %v: app %s, RSS %s", extraTabs+1, b.idle, cpu(eight[0]), mb(eightRSS))

	d := points(eight[0], one[0])
	b.info("8", "unfocused idle CPU, one tab", pct(one[0].ProcessFrac()), pct(one[1].ProcessFrac()), pct(one[2].ProcessFrac()))
	b.add("8", fmt.Sprintf("unfocused idle CPU, %d tabs", extraTabs+1), "≤ one tab + 0.5 pt",
		fmt.Sprintf("%s (%+.1f pt)", pct(eight[0].ProcessFrac()), d), pct(eight[1].ProcessFrac()), pct(eight[2].ProcessFrac()), verdict(d <= 0.5))
	perTab := (eightRSS - oneRSS) / extraTabs
	b.add("8", fmt.Sprintf("RSS per extra idle tab (one tab %s, %d tabs %s)", mb(oneRSS), extraTabs+1, mb(eightRSS)), "≤ +30 MB",
		"+"+mb(perTab), mb(b.entryWin.s.Now().Mem.RSS), mb(b.bareWin.s.Now().Mem.RSS), verdict(perTab <= 30e6))
	// At 60 Hz the next frame is at most ~17 ms away, plus the frame it
	// takes to paint.
	b.add("8", "Ctrl+Tab: switch → its frame painted, median / max", "≤ 34 ms (next frame)",
		ms(switchToPaint[len(switchToPaint)/2])+" / "+ms(switchToPaint[len(switchToPaint)-1]), "-", "-",
		verdict(switchToPaint[len(switchToPaint)-1] <= 34*time.Millisecond))
	b.info("8", "Ctrl+Tab: key sent (xdotool) → painted, median / max",
		ms(keyToPaint[len(keyToPaint)/2])+" / "+ms(keyToPaint[len(keyToPaint)-1]), "-", "-")
	return nil
}

// unfocusedIdle gives the focus to the bare Label window and measures the
// app and both floors over b.idle; the app's RSS after.
func (b *bench) unfocusedIdle(w *window) ([]wintest.Usage, int64, error) {
	if err := b.bareWin.p.Focus(b.bareWin.id); err != nil {
		return nil, 0, err
	}
	time.Sleep(2 * time.Second)
	u := measure(b.idle, w, b.entryWin, b.bareWin)
	return u, w.s.Now().Mem.RSS, nil
}
