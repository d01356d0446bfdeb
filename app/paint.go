package app

import (
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// Fyne says nothing when a frame is painted: draw only changes objects,
// and the driver paints them at its next tick. paintProbe tells anyway: a
// 1×1 transparent raster in the window, whose texture, once dropped by a
// refresh, is made again by the painter while it paints the frame. That
// is the moment a long session's older history may start converting
// (HistoryLoad) without competing with the first screen's paint.
type paintProbe struct {
	raster *canvas.Raster
	object fyne.CanvasObject
	// painted (may be nil) runs at each paint that had waiters.
	painted func()

	// waiting wait for a draw, armed for the next paint. The UI goroutine
	// is their only user, but the test driver paints on any goroutine.
	mu      sync.Mutex
	waiting []paintWait
	armed   []func()
}

type paintWait struct {
	rev  uint64
	done func()
}

// paintWaitMax is how long AfterPaint waits for a paint that may never
// come: a hidden or minimised window paints nothing, nor does the test
// driver.
const paintWaitMax = 500 * time.Millisecond

var clearPixel = image.NewNRGBA(image.Rect(0, 0, 1, 1))

func newPaintProbe() *paintProbe {
	p := &paintProbe{}
	p.raster = canvas.NewRaster(p.generate)
	p.raster.Resize(fyne.NewSize(1, 1))
	p.object = container.NewWithoutLayout(p.raster)
	return p
}

// generate runs on the UI goroutine while a frame is painted.
func (p *paintProbe) generate(w, h int) image.Image {
	p.mu.Lock()
	armed := p.armed
	p.armed = nil
	p.mu.Unlock()
	if len(armed) > 0 {
		if p.painted != nil {
			p.painted()
		}
		for _, f := range armed {
			go f()
		}
	}
	return clearPixel
}

// drawn arms the waits for a draw of rev or older, on the UI goroutine
// once the widgets hold the session as it was at rev.
func (p *paintProbe) drawn(rev uint64) {
	p.wait(paintWait{}, rev)
}

// wait adds w (unless its done is nil) and arms what rev satisfies.
func (p *paintProbe) wait(w paintWait, rev uint64) {
	p.mu.Lock()
	if w.done != nil {
		p.waiting = append(p.waiting, w)
	}
	keep := p.waiting[:0]
	for _, pw := range p.waiting {
		if pw.rev <= rev {
			p.armed = append(p.armed, pw.done)
		} else {
			keep = append(keep, pw)
		}
	}
	clear(p.waiting[len(keep):])
	p.waiting = keep
	armed := len(p.armed) > 0
	p.mu.Unlock()
	if armed {
		p.raster.Refresh()
	}
}

// AfterPaint implements painter.
func (w *Tab) AfterPaint(f func()) {
	var once sync.Once
	done := func() { once.Do(f) }
	rev := w.session.Rev()
	time.AfterFunc(paintWaitMax, done)
	w.do(func() { w.probe.wait(paintWait{rev, done}, w.drawn.Rev) })
	w.Invalidate()
}
