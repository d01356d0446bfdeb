package uiloop

import (
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// Fyne says nothing when a frame is painted: draw only changes objects,
// and the driver paints them at its next tick. PaintProbe tells anyway: a
// 1×1 transparent raster in the window, whose texture, once dropped by a
// refresh, is made again by the painter while it paints the frame. That
// is the moment a long session's older history may start converting
// (HistoryLoad) without competing with the first screen's paint.
type PaintProbe struct {
	raster *canvas.Raster
	object fyne.CanvasObject
	// Painted (may be nil) runs at each paint that had waiters.
	Painted func()

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

// PaintWaitMax is how long a wait for a paint should last at most for a paint that may never
// come: a hidden or minimised window paints nothing, nor does the test
// driver.
const PaintWaitMax = 500 * time.Millisecond

var clearPixel = image.NewNRGBA(image.Rect(0, 0, 1, 1))

// NewPaintProbe returns a probe; Object goes in the window.
func NewPaintProbe() *PaintProbe {
	p := &PaintProbe{}
	p.raster = canvas.NewRaster(p.generate)
	p.raster.Resize(fyne.NewSize(1, 1))
	p.object = container.NewWithoutLayout(p.raster)
	return p
}

// generate runs on the UI goroutine while a frame is painted.
func (p *PaintProbe) generate(w, h int) image.Image {
	p.mu.Lock()
	armed := p.armed
	p.armed = nil
	p.mu.Unlock()
	if len(armed) > 0 {
		if p.Painted != nil {
			p.Painted()
		}
		// Each on a goroutine of its own, as AfterPaint promises: f only
		// signals a waiter (it must not wait itself), so the goroutine
		// ends with it.
		for _, f := range armed {
			go f()
		}
	}
	return clearPixel
}

// Object is the probe's raster, to put in the window's content.
func (p *PaintProbe) Object() fyne.CanvasObject { return p.object }

// Drawn arms the waits for a draw of rev or older, on the UI goroutine
// once the widgets hold the session as it was at rev.
func (p *PaintProbe) Drawn(rev uint64) {
	p.Wait(0, nil, rev)
}

// Wait adds done (unless nil), to run at the first paint after a draw of
// rev, and arms what drawnRev, the revision drawn now, satisfies.
func (p *PaintProbe) Wait(rev uint64, done func(), drawnRev uint64) {
	w := paintWait{rev, done}
	rev = drawnRev
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
