package main

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// emptySession measures the app with an empty session: its RSS (what the
// replies' RSS is set against), focused idle, idle 12 s after the last
// input, and keypress → echo.
func (b *bench) emptySession() error {
	w, err := b.startPaced("empty")
	if err != nil {
		return err
	}
	defer b.stop(w)
	app, bare, entry := b.rss(w, 20*time.Second)
	b.logf("RSS, empty session: app %s; floor focused %s, unfocused %s", mb(app.RSS), mb(entry.RSS), mb(bare.RSS))
	b.info("4", "RSS, empty session", mb(app.RSS), mb(entry.RSS), mb(bare.RSS))
	last, err := b.addFocusedIdle(w, "empty session")
	if err != nil {
		return err
	}
	b.addQuietIdle(w, last, "empty session")
	return b.addKeys(w, "empty session")
}

// reply starts an app with an empty session, streams the reply to prompt
// through the pacer and waits for the run to end and the app to settle.
// It returns the app, its RSS before the prompt and after the reply.
func (b *bench) reply(name, prompt string) (w *window, before, after wintest.Memory, err error) {
	if w, err = b.startPaced(name); err != nil {
		return nil, before, after, err
	}
	before, _, _ = b.rss(w, 20*time.Second)
	at, t0, err := b.send(w, prompt)
	if err != nil {
		return w, before, after, err
	}
	t1, ok := b.waitRun(w, at, 5*time.Minute)
	if !ok {
		return w, before, after, fmt.Errorf("the %s run did not end within 5 minutes", prompt)
	}
	took := settle(w, 60*time.Second)
	b.logf("%s: streamed in %v, the app settled %v later", prompt, t1.Sub(t0).Round(time.Millisecond), took.Round(time.Second))
	if last, ok := b.lastDelta(w, t0, time.Second); ok {
		b.reportOnScreen(w, last, t0)
	}
	after, _, _ = b.rss(w, 20*time.Second)
	b.logf("RSS: %s before the prompt, %s after the reply (+%s, peak %s)", mb(before.RSS), mb(after.RSS), mb(after.RSS-before.RSS), mb(after.Peak))
	b.screenshot(w)
	return w, before, after, nil
}

func (b *bench) linesReply() error {
	w, before, after, err := b.reply("lines", fmt.Sprintf("[[lines:%d]]", b.lines))
	if w != nil {
		defer b.stop(w)
	}
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%d-line reply", b.lines)
	b.info("4", "RSS, "+what+", over its empty session", fmt.Sprintf("%s (+%s)", mb(after.RSS), mb(after.RSS-before.RSS)),
		mb(b.entryWin.s.Now().Mem.RSS), mb(b.bareWin.s.Now().Mem.RSS))
	_, err = b.addFocusedIdle(w, "after a "+what)
	return err
}

func (b *bench) wordsReply() error {
	w, before, after, err := b.reply("words", fmt.Sprintf("[[words:%d]]", b.words))
	if w != nil {
		defer b.stop(w)
	}
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%d-word reply", b.words)
	d := after.RSS - before.RSS
	b.add("4", "RSS, "+what+", over its empty session", "≤ +120 MB",
		fmt.Sprintf("%s (+%s over %s)", mb(after.RSS), mb(d), mb(before.RSS)),
		mb(b.entryWin.s.Now().Mem.RSS), mb(b.bareWin.s.Now().Mem.RSS), verdict(d <= 120e6))
	_, err = b.addFocusedIdle(w, "with a "+what+" on screen")
	return err
}

func (b *bench) wordReply() error {
	return b.blobReply("word", fmt.Sprintf("[[word:%s]]", b.word), fmt.Sprintf("%s one-word reply", b.word))
}

func (b *bench) mixedLineReply() error {
	return b.blobReply("mixedline", fmt.Sprintf("[[mixedline:%s]]", b.mixedLine), fmt.Sprintf("%s mixed-line reply", b.mixedLine))
}

// blobReply streams a reply of one huge word or line and measures, from
// the moment the pacer wrote its last delta: a key typed then until it
// echoes in the editor, the RSS over the empty session, and the time the
// app takes to exit on SIGTERM with the reply on screen.
func (b *bench) blobReply(name, prompt, what string) error {
	w, err := b.startPaced(name)
	if err != nil {
		return err
	}
	defer b.stop(w)
	before, _, _ := b.rss(w, 20*time.Second)
	guard := b.guardRSS(w)
	defer guard.stop()
	_, t0, err := b.send(w, prompt)
	if err != nil {
		return err
	}
	last, ok := b.lastDelta(w, t0, 2*time.Minute)
	if !ok {
		if guard.fired() {
			b.add("5", what+": last delta → typed key echoes", "≤ 500 ms", fmt.Sprintf("app killed: RSS over %s before the last delta", mb(b.maxRSS)), "-", "-", "MISS")
			return nil
		}
		return fmt.Errorf("the pacer noted no last text delta for %s in 2 minutes", prompt)
	}
	sent, err := w.x.Key('x')
	if err != nil {
		return err
	}
	echo, echoed := w.tr.WaitMark("editor", sent.Add(-time.Millisecond), nil, b.echoWait, time.Millisecond)
	killed := func() string {
		if guard.fired() {
			return fmt.Sprintf("; app killed: RSS over %s", mb(b.maxRSS))
		}
		return ""
	}
	if echoed {
		lat := echo.T.Sub(last.T)
		b.logf("%s: key sent %v after the last delta, echoed %v after it", what, sent.Sub(last.T).Round(100*time.Microsecond), lat.Round(100*time.Microsecond))
		b.add("5", what+": last delta → typed key echoes", "≤ 500 ms", ms(lat), "-", "-", verdict(lat <= 500*time.Millisecond))
	} else {
		b.logf("%s: key sent %v after the last delta, not echoed within %v%s", what, sent.Sub(last.T).Round(100*time.Microsecond), b.echoWait, killed())
		b.add("5", what+": last delta → typed key echoes", "≤ 500 ms", fmt.Sprintf("none in %v%s", b.echoWait, killed()), "-", "-", "MISS")
	}

	var mem wintest.Memory
	if echoed {
		mem, _, _ = b.rss(w, 20*time.Second)
	} else {
		mem = w.s.Now().Mem // stuck: settling would take forever
	}
	u := wintest.Between(w.s.At(last.T), w.s.Now())
	b.logf("%s: since the last delta app %s; RSS %s (peak %s), %s before the prompt", what, cpu(u), mb(mem.RSS), mb(mem.Peak), mb(before.RSS))
	d := mem.RSS - before.RSS
	note := ""
	if !echoed {
		note = "; UI stuck, not settled"
	}
	note += killed()
	b.add("5", what+": RSS over its empty session", "≤ +200 MB", fmt.Sprintf("%s (+%s, peak %s%s)", mb(mem.RSS), mb(d), mb(mem.Peak), note),
		mb(b.entryWin.s.Now().Mem.RSS), mb(b.bareWin.s.Now().Mem.RSS), verdict(d <= 200e6 && !guard.fired()))
	if w.p.Exited() {
		b.add("5", what+": SIGTERM → exit", "≤ 3 s", "not measured"+killed(), "-", "-", "MISS")
		return nil
	}
	b.screenshot(w)

	term := time.Now()
	if err := w.p.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	if _, err := w.p.Wait(b.termWait); err != nil && !w.p.Exited() {
		// SIGQUIT makes the Go runtime print every goroutine to stderr
		// before it exits: what the app was waiting for.
		w.p.Signal(syscall.SIGQUIT)
		if _, err := w.p.Wait(2 * time.Second); err != nil && !w.p.Exited() {
			w.p.Kill()
		}
		b.logf("%s: still running %v after SIGTERM: SIGQUIT, goroutines in %s", what, b.termWait, filepath.Join(w.dir, "stderr.txt"))
		b.add("5", what+": SIGTERM → exit", "≤ 3 s", fmt.Sprintf("none in %v (killed)", b.termWait), "-", "-", "MISS")
		return nil
	}
	took := time.Since(term)
	b.logf("%s: exited %v after SIGTERM", what, took.Round(time.Millisecond))
	b.add("5", what+": SIGTERM → exit", "≤ 3 s", secs(took), "-", "-", verdict(took <= 3*time.Second))
	return nil
}

// rssGuard kills an app whose RSS passes -max-rss-mb, so that one runaway
// layout cannot take the memory of everyone on the machine.
type rssGuard struct {
	done  chan struct{}
	once  sync.Once
	fire  atomic.Bool
	ended chan struct{}
}

func (b *bench) guardRSS(w *window) *rssGuard {
	g := &rssGuard{done: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(g.ended)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-g.done:
				return
			case <-t.C:
			}
			if m, err := wintest.ReadMemory(w.p.Pid); err == nil && m.RSS > b.maxRSS {
				g.fire.Store(true)
				fmt.Printf("  the app's RSS passed %s: killed\n", mb(b.maxRSS))
				w.p.Kill()
				return
			}
		}
	}()
	return g
}

func (g *rssGuard) fired() bool { return g.fire.Load() }

func (g *rssGuard) stop() {
	g.once.Do(func() { close(g.done) })
	<-g.ended
}
