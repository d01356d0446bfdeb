package main

import (
	"bytes"
	"errors"
	"time"
)

// settleWatch records the last time a rectangle of the screen changed,
// from when it starts until it has stayed the same for quiet: when a long
// session's transcript and sidebar stop changing after the first paint
// (issue 21: nothing visible changes unless the user or the agent acts).
type settleWatch struct {
	done    chan struct{}
	last    time.Time
	changes int
	settled bool
	err     error
}

// watchSettle polls the rectangle every poll from now on; it ends once
// nothing changed for quiet, or after limit (settled then false).
func (b *bench) watchSettle(x0, y0, wd, ht int, poll, quiet, limit time.Duration) *settleWatch {
	sw := &settleWatch{done: make(chan struct{})}
	go func() {
		defer close(sw.done)
		began := time.Now()
		var prev []byte
		for {
			pix, err := b.x.GetImage(x0, y0, wd, ht)
			now := time.Now()
			if err != nil {
				sw.err = err
				return
			}
			if prev == nil || !bytes.Equal(prev, pix) {
				if prev != nil {
					sw.changes++
				}
				sw.last, prev = now, append(prev[:0], pix...)
			}
			if now.Sub(sw.last) >= quiet {
				sw.settled = true
				return
			}
			if now.Sub(began) >= limit {
				return
			}
			time.Sleep(poll)
		}
	}()
	return sw
}

// bareLaunch is the floor of a launch: a bare Fyne window started on the
// app's display, from its process start until its label shows (its first
// frame painted). It stops the window before returning.
func (b *bench) bareLaunch() (time.Duration, error) {
	stop := make(chan struct{})
	pw := b.watchPaint(0, 0, 600, 80, stop)
	w, err := b.start("bare-launch", b.bare, b.display, []string{"-title", "Bare launch", "-size", "1200x800"})
	if err != nil {
		close(stop)
		<-pw.done
		return 0, err
	}
	defer b.stop(w)
	select {
	case <-pw.done:
	case <-time.After(60 * time.Second):
	}
	close(stop)
	<-pw.done
	if pw.err != nil {
		return 0, pw.err
	}
	if pw.at.IsZero() {
		return 0, errNotPainted
	}
	return pw.at.Sub(w.p.Started), nil
}

var errNotPainted = errors.New("the bare window never showed its label")
