package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// calibrate measures what the fake streams by itself at the delay the
// rate implies and with none, and what it streams behind the pacer, which
// is what the stream benchmark uses.
func (b *bench) calibrate() error {
	delay := time.Duration(float64(time.Second) / b.rate)
	for _, d := range []time.Duration{delay, 0} {
		rate, err := fakeRate(b.fake, nil, d, 6000)
		if err != nil {
			return err
		}
		b.logf("the fake alone, --fake-delay=%v: %.0f message_update/s", d, rate)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	rate, err := fakeRate(self, b.paceEnv(), 0, 6000)
	if err != nil {
		return err
	}
	b.logf("the fake behind the pacer (%.0f/s wanted): %.0f message_update/s", b.rate, rate)
	return nil
}

// paceEnv makes benchui, run as the agent, the pacer in front of the fake.
func (b *bench) paceEnv() []string {
	return []string{paceFakeEnv + "=" + b.fake, fmt.Sprintf("%s=%g", paceRateEnv, b.rate)}
}

// fakeRate streams n deltas from the fake alone and returns the rate of
// text_delta updates from the first to the last.
func fakeRate(fake string, env []string, delay time.Duration, n int) (float64, error) {
	cmd := exec.Command(fake, "--mode", "rpc", "--no-session", "--fake-delay="+delay.String())
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	fmt.Fprintf(in, `{"id":"1","type":"prompt","message":"[[long:%d]]"}`+"\n", n)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	var first, last time.Time
	count := 0
	for sc.Scan() {
		line := sc.Bytes()
		if strings.Contains(string(line), `"text_delta"`) {
			now := time.Now()
			if count == 0 {
				first = now
			}
			last = now
			count++
		}
		if strings.Contains(string(line), `"agent_end"`) {
			break
		}
	}
	if count < 2 {
		return 0, fmt.Errorf("the fake streamed %d deltas", count)
	}
	return float64(count-1) / last.Sub(first).Seconds(), nil
}

// send types prompt into the app's focused editor, presses Return and
// waits until the fake has the prompt; it returns the prompt's index in
// the fake's log and when the fake had it.
func (b *bench) send(w *window, prompt string) (int, time.Time, error) {
	if err := w.p.Focus(w.id); err != nil {
		return 0, time.Time{}, err
	}
	if err := w.p.Type(prompt); err != nil {
		return 0, time.Time{}, err
	}
	log := filepath.Join(w.dir, "fake-log.jsonl")
	before := len(wintest.ReadFakeLog(log))
	if err := w.p.Key("Return"); err != nil {
		return 0, time.Time{}, err
	}
	at := -1
	ok := wintest.WaitFor(30*time.Second, 2*time.Millisecond, func() bool {
		recs := wintest.ReadFakeLog(log)
		for i := before; i < len(recs); i++ {
			if recs[i].Type == "prompt" {
				at = i
				return true
			}
		}
		return false
	})
	if !ok {
		return 0, time.Time{}, fmt.Errorf("the fake never got the prompt %q", prompt)
	}
	return at, time.Now(), nil
}

// waitRun waits until the run of the prompt at index at in the fake's log
// has ended: the app asks for the stats again on agent_settled.
func (b *bench) waitRun(w *window, at int, timeout time.Duration) (time.Time, bool) {
	log := filepath.Join(w.dir, "fake-log.jsonl")
	ok := wintest.WaitFor(timeout, 5*time.Millisecond, func() bool {
		recs := wintest.ReadFakeLog(log)
		for i := at + 1; i < len(recs); i++ {
			if recs[i].Type == "get_session_stats" {
				return true
			}
		}
		return false
	})
	return time.Now(), ok
}

// lastDelta waits for the pacer's note of the last text delta of a reply
// sent at or after from.
func (b *bench) lastDelta(w *window, from time.Time, timeout time.Duration) (wintest.Mark, bool) {
	return wintest.NewTraceTail(w.paceLog).WaitMark("last-text-delta", from, nil, timeout, time.Millisecond)
}

// onScreen finds the first frame drawn after from whose reply holds all of
// the last delta's text: the "draw" mark carries the reply's text length
// (app/draw.go), and "items" follows once the chat has the frame.
func onScreen(marks wintest.Marks, last wintest.Mark, from time.Time) (draw, items wintest.Mark, ok bool) {
	draw, ok = marks.First("draw", from, func(m wintest.Mark) bool { return m.N() >= last.N() })
	if !ok {
		return draw, items, false
	}
	items, _ = marks.First("items", draw.T, nil)
	return draw, items, true
}

// reportOnScreen logs (and returns) how long after the last delta the
// whole reply was in a drawn frame, and how long until the chat had that
// frame's items (the "items" mark after it; 0 when there is none).
func (b *bench) reportOnScreen(w *window, last wintest.Mark, from time.Time) (lag, chat time.Duration, ok bool) {
	marks := wintest.ReadTrace(w.p.Trace)
	draw, items, ok := onScreen(marks, last, from)
	if !ok {
		if m, any := marks.Last("draw"); any && m.N() < 0 {
			b.logf("last delta (%d bytes of text) on screen: not measurable: this app's \"draw\" marks carry no reply length", last.N())
		} else {
			b.logf("last delta (%d bytes of text) on screen: no frame held the whole reply", last.N())
		}
		return 0, 0, false
	}
	lag = max(draw.T.Sub(last.T), 0)
	if !items.T.IsZero() {
		chat = max(items.T.Sub(last.T), 0)
	}
	b.logf("last delta (%d bytes of text) on screen: draw mark %v after the pacer wrote it; the chat had the items %v after it",
		last.N(), lag.Round(100*time.Microsecond), chat.Round(100*time.Microsecond))
	return lag, chat, true
}

func (b *bench) stream() error {
	w, err := b.startPaced("stream")
	if err != nil {
		return err
	}
	defer b.stop(w)
	if err := w.p.Focus(w.id); err != nil {
		return err
	}
	time.Sleep(time.Second)
	at, t0, err := b.send(w, fmt.Sprintf("[[long:%d]]", b.deltas))
	if err != nil {
		return err
	}
	s0 := w.s.Now()
	t1, ok := b.waitRun(w, at, 10*time.Minute)
	if !ok {
		return fmt.Errorf("the run did not end within 10 minutes")
	}
	s1 := w.s.Now()
	last, haveLast := b.lastDelta(w, t0, 30*time.Second)
	settle(w, 30*time.Second)
	marks := wintest.ReadTrace(w.p.Trace)
	u := wintest.Between(s0, s1)
	wall := t1.Sub(t0)
	rate := float64(b.deltas) / wall.Seconds()
	frames := marks.Count("draw", t0, t1)
	lastDraw, _ := marks.Last("draw")
	b.logf("%d deltas in %v: %.0f message_update/s end to end", b.deltas, wall.Round(time.Millisecond), rate)
	b.logf("app %s of a core; %d frames drawn (%.1f/s); last draw %v after the run ended",
		cpu(u), frames, float64(frames)/wall.Seconds(), lastDraw.T.Sub(t1).Round(time.Millisecond))
	fu := wintest.Between(b.entryWin.s.At(t0), b.entryWin.s.At(t1))
	uu := wintest.Between(b.bareWin.s.At(t0), b.bareWin.s.At(t1))
	b.logf("floors meanwhile: focused %s, unfocused %s", cpu(fu), cpu(uu))
	what := fmt.Sprintf("%d deltas at %.0f/s", b.deltas, b.rate)
	b.add("3", "streaming "+what+": UI main thread", "≤ 25 %", pct(u.MainFrac()), pct(fu.MainFrac()), pct(uu.MainFrac()), verdict(u.MainFrac() <= 0.25))
	b.add("3", "streaming "+what+": process CPU", "≤ 60 %", pct(u.ProcessFrac()), pct(fu.ProcessFrac()), pct(uu.ProcessFrac()), verdict(u.ProcessFrac() <= 0.60))
	switch {
	case !haveLast:
		b.logf("the pacer noted no last text delta (%s)", w.paceLog)
		b.add("3", "streaming: last delta → on screen", "≤ 100 ms", "not seen (no pacer note)", "-", "-", "MISS")
	default:
		if lag, chat, ok := b.reportOnScreen(w, last, t0); ok {
			b.add("3", "streaming: last delta → on screen (draw mark)", "≤ 100 ms", ms(lag), "-", "-", verdict(lag <= 100*time.Millisecond))
			// The draw mark comes before the chat takes the frame's items
			// (the "items" mark after it): that time is the widgets'.
			if chat > 0 {
				b.info("3", "streaming: last delta → the chat has that frame (items mark)", ms(chat), "-", "-")
			}
		} else {
			b.add("3", "streaming: last delta → on screen (draw mark)", "≤ 100 ms", "not seen", "-", "-", "MISS")
		}
	}
	b.info("3", "streaming: wall time, rate, frames drawn", fmt.Sprintf("%.1f s, %.0f/s, %d frames (%.1f/s)", wall.Seconds(), rate, frames, float64(frames)/wall.Seconds()), "-", "-")
	mem := w.s.Now().Mem
	b.logf("RSS after the stream: %s (peak %s)", mb(mem.RSS), mb(mem.Peak))
	b.info("4", fmt.Sprintf("RSS after streaming %d deltas", b.deltas), fmt.Sprintf("%s (peak %s)", mb(mem.RSS), mb(mem.Peak)),
		mb(b.entryWin.s.Now().Mem.RSS), mb(b.bareWin.s.Now().Mem.RSS))
	return nil
}
