package app

import (
	"context"
	"sync"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
)

// previewReads reads the session browser's preview of one session at a
// time, from the end of its file (sessionfiles.ReadTranscriptTail), on the
// tab's workers: selecting another session or closing the browser cancels
// the read under way, which then shows nothing.
type previewReads struct {
	host *tabHost

	mu     sync.Mutex
	cancel context.CancelFunc
}

// read cancels the read before and starts one of path; show gets its
// preview on the UI goroutine unless it was cancelled by then. Called on
// the UI goroutine.
func (p *previewReads) read(path string, show func(path string, msgs []model.PreviewMessage, err error)) {
	ctx, cancel := context.WithCancel(context.Background())
	p.mu.Lock()
	if p.cancel != nil {
		p.cancel()
	}
	p.cancel = cancel
	p.mu.Unlock()
	c := p.host.controller
	p.host.bg.Go(func(bg context.Context) {
		defer context.AfterFunc(bg, cancel)() // the tab closes
		local, err := c.SessionFile(ctx, path)
		var preview []model.PreviewMessage
		if err == nil {
			msgs, rerr := sessionfiles.ReadTranscriptTail(ctx, local, model.PreviewTail())
			preview, err = model.Preview(msgs), rerr
		}
		if ctx.Err() != nil {
			return
		}
		p.host.do(func() {
			// Another session was selected, or the browser closed, since.
			if ctx.Err() == nil {
				show(path, preview, err)
			}
		})
	})
}

// stop cancels the read under way, if any.
func (p *previewReads) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}
