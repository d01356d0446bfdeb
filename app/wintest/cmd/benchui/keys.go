package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

type keyStats struct {
	p50, p95, max, cpu time.Duration
	echoed, missed     int
}

// keys sends single keys to the focused editor of w through XTEST on its
// display and pairs each with the next "editor" mark.
func (b *bench) keys(w *window, what string) (keyStats, error) {
	var ks keyStats
	if err := w.p.Focus(w.id); err != nil {
		return ks, err
	}
	time.Sleep(time.Second)
	idle := measure(3*time.Second, w)[0]
	w.tr.Poll()
	length := 0
	if m, ok := w.tr.Marks.Last("editor"); ok && m.N() >= 0 {
		length = m.N()
	}
	r := rand.New(rand.NewPCG(7, 7))
	var lat []time.Duration
	s0 := w.s.Now()
	for i := 0; i < b.nkeys; i++ {
		time.Sleep(time.Duration(40+r.IntN(60)) * time.Millisecond)
		sent, err := w.x.Key(rune('a' + i%26))
		if err != nil {
			return ks, err
		}
		want := length + 1
		m, ok := w.tr.WaitMark("editor", sent.Add(-time.Millisecond), func(m wintest.Mark) bool { return m.N() == want }, 2*time.Second, 200*time.Microsecond)
		if !ok {
			ks.missed++
			w.tr.Poll()
			if last, ok := w.tr.Marks.Last("editor"); ok {
				length = last.N()
			}
			continue
		}
		length = want
		lat = append(lat, m.T.Sub(sent))
	}
	s1 := w.s.Now()
	if len(lat) == 0 {
		return ks, fmt.Errorf("%s: no key was echoed", what)
	}
	slices.Sort(lat)
	ks.echoed = len(lat)
	ks.p50 = lat[len(lat)/2]
	ks.p95 = lat[min(len(lat)-1, len(lat)*95/100)]
	ks.max = lat[len(lat)-1]
	u := wintest.Between(s0, s1)
	extra := u.Main - time.Duration(idle.MainFrac()*float64(u.Wall))
	ks.cpu = extra / time.Duration(b.nkeys)
	b.logf("%s: %d keys, %d echoed: median %v, p95 %v, max %v; main thread %v CPU per key over idle (idle %s, during keys %s)",
		what, b.nkeys, len(lat), ks.p50.Round(10*time.Microsecond), ks.p95.Round(10*time.Microsecond), ks.max.Round(10*time.Microsecond),
		ks.cpu.Round(10*time.Microsecond), pct(idle.MainFrac()), pct(u.MainFrac()))
	return ks, nil
}

// floorKeys measures keypress-to-echo on the focused floor, once a run.
func (b *bench) floorKeys() (keyStats, error) {
	if b.floorKey != nil {
		return *b.floorKey, nil
	}
	ks, err := b.keys(b.entryWin, "floor (bare Entry)")
	if err != nil {
		return ks, err
	}
	b.floorKey = &ks
	return ks, nil
}

// addKeys measures keypress-to-echo on the app's editor and on the floor
// and adds the rows: median ≤ floor + 0.5 ms, main-thread CPU per key ≤ 1.5 ×
// the floor's.
func (b *bench) addKeys(w *window, what string) error {
	app, err := b.keys(w, "app editor, "+what)
	if err != nil {
		return err
	}
	floor, err := b.floorKeys()
	if err != nil {
		return err
	}
	b.add("7", "keypress → echo, median, "+what, "≤ floor + 0.5 ms", ms(app.p50), ms(floor.p50), "-",
		verdict(app.p50 <= floor.p50+500*time.Microsecond))
	b.info("7", "keypress → echo, p95 / max, "+what, ms(app.p95)+" / "+ms(app.max), ms(floor.p95)+" / "+ms(floor.max), "-")
	b.add("7", "main-thread CPU per key (over idle), "+what, "≤ 1.5 × floor", ms(app.cpu), ms(floor.cpu), "-",
		verdict(float64(app.cpu) <= 1.5*float64(floor.cpu)))
	if app.missed > 0 {
		b.info("7", "keys not echoed within 2 s, "+what, fmt.Sprintf("%d of %d", app.missed, b.nkeys), fmt.Sprint(floor.missed), "-")
	}
	return nil
}
