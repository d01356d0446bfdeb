package app

import (
	"slices"
	"time"

	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets"
)

// sameBacking reports whether two slices are the very same data: a View
// reuses its predecessor's slices for what did not change.
func sameBacking[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// draw pushes the session's current state into the widgets. It runs on the
// UI goroutine, at most once per frame, and touches only what changed.
func (w *Window) draw() {
	prev := w.drawn
	first := prev.Rev == 0
	v := w.session.View(&prev)
	if !first && v.Rev == prev.Rev {
		w.probe.drawn(v.Rev)
		return
	}
	if trace.Enabled() {
		trace.Mark("draw", replyLen(v.Items))
	}
	if first || !sameBacking(v.Items, prev.Items) {
		w.chat.SetItems(v.Items)
		if first || len(v.Items) != len(prev.Items) {
			w.prompt.Editor.SetHistory(model.UserPrompts(v.Items))
		}
		if trace.Enabled() {
			trace.Mark("items", len(v.Items))
		}
	}
	if first || !sameBacking(v.Cards, prev.Cards) {
		w.sidebar.SetCards(v.Cards)
	}
	w.status.SetStatus(v.Status)
	if first || !slices.Equal(v.Models, prev.Models) {
		w.models.SetModels(v.Models)
	}
	w.models.SetCurrent(v.ModelProvider, v.ModelID)
	if first || !slices.Equal(v.Levels, prev.Levels) {
		w.thinking.SetLevels(v.Levels)
	}
	w.thinking.SetCurrent(v.Thinking)
	w.prompt.SetStreaming(v.Running)
	w.prompt.SetCommandRunning(v.BashRunning)
	w.tickBash(v.BashRunning)
	if first || !slices.Equal(v.Steering, prev.Steering) || !slices.Equal(v.FollowUp, prev.FollowUp) {
		w.prompt.SetQueue(v.Steering, v.FollowUp)
	}
	if first || !slices.Equal(v.Waiting, prev.Waiting) {
		w.prompt.SetWaiting(v.Waiting)
	}
	w.prompt.SetQueueNote(v.QueueNote)
	if v.SessionName != prev.SessionName || first {
		name := v.SessionName
		if name == "" {
			name = "Untitled session"
		}
		w.name.SetText(name)
	}
	if title := windowTitle(v); title != w.win.Title() {
		w.win.SetTitle(title)
	}
	if first || model.BannerSeq(v.Banner) != model.BannerSeq(prev.Banner) {
		w.showBanner(v.Banner)
	}
	if (v.Retry == nil) != (prev.Retry == nil) || (v.Retry != nil && *v.Retry != *prev.Retry) {
		w.retry.Set(v.Retry)
	}
	if first || v.WidgetsRev != prev.WidgetsRev {
		w.drawWidgets(v.Widgets, prev.Widgets)
	}
	w.drawn = v
	w.probe.drawn(v.Rev)
}

// replyLen is the length of the last reply's text blocks, for the UI
// benchmarks to see when a frame holds the whole reply
// (scripts/bench-ui.sh: "last delta on screen").
func replyLen(items []model.ChatItem) int {
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Kind == model.ChatAssistant {
			n := 0
			for _, b := range items[i].Blocks {
				if b.Kind == model.BlockText {
					n += len(b.Text)
				}
			}
			return n
		}
	}
	return 0
}

func windowTitle(v model.View) string {
	switch {
	case v.Title != "":
		return v.Title + " — " + appTitle
	case v.SessionName != "":
		return appTitle + " — " + v.SessionName
	}
	return appTitle
}

// showBanner puts up what the session says about the agent process — it
// could not start, does not answer, crashed or ended the session — or takes
// the banner down. The transcript and the draft stay as they are.
func (w *Window) showBanner(b *model.BannerState) {
	if b == nil {
		if w.banner.Visible() {
			w.banner.Hide()
			w.body.Refresh()
		}
		return
	}
	w.banner.SetMessage(b.Title, b.Detail, b.Level)
	w.banner.Show()
	w.body.Refresh()
}

// drawWidgets places the extensions' text blocks above or below the editor.
func (w *Window) drawWidgets(now, before map[string]model.ExtWidget) {
	for key, old := range before {
		if _, still := now[key]; !still {
			w.blocks(old.Below).Set(key, nil)
		}
	}
	for key, wd := range now {
		if old, ok := before[key]; ok && old.Below != wd.Below {
			w.blocks(old.Below).Set(key, nil)
		}
		w.blocks(wd.Below).Set(key, wd.Lines)
	}
}

func (w *Window) blocks(below bool) *widgets.ExtensionBlocks {
	if below {
		return w.below
	}
	return w.above
}

// tickBash moves the elapsed time of running !commands on once a second,
// only while one runs.
func (w *Window) tickBash(running bool) {
	switch {
	case running && w.stopBashTick == nil:
		w.stopBashTick = tickOnUI(w.do, time.Second, func() {
			w.session.TickBash()
			w.Invalidate()
		})
	case !running && w.stopBashTick != nil:
		w.stopBashTick()
		w.stopBashTick = nil
	}
}

// linesPerFrameMs is the wait before the next redraw for each line of text
// the last one drew anew. Fyne shapes and rasterises a new line of text
// for about 1.5 ms of the UI thread; a reply streaming faster than anyone
// reads (a screen of new lines a frame) would otherwise keep it and
// Mesa's rasterisers busy. Spacing redraws bounds that to about 150 new
// lines a second; a reply arriving at reading speed, a line or two a
// frame, still redraws at the full frame rate.
const linesPerFrameMs = 6

// drawPaced draws and says how long to wait before the next redraw. Once
// the loop has ended there is nothing to draw on (Fyne would run this on
// the frames goroutine).
func (w *Window) drawPaced() time.Duration {
	if w.loopEnded.Load() {
		return frameInterval
	}
	before := widgets.LinesDrawn()
	w.draw()
	return frameGap(widgets.LinesDrawn() - before)
}

func frameGap(newLines uint64) time.Duration {
	gap := time.Duration(newLines) * linesPerFrameMs * time.Millisecond
	return min(max(gap, frameInterval), maxFrameGap)
}
