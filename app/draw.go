package app

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"knightcode.ai/desktop/app/uiloop"
	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/prompt"
)

// sameBacking reports whether two slices are the very same data: a View
// reuses its predecessor's slices for what did not change.
func sameBacking[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// draw pushes the session's current state into the widgets. It runs on the
// UI goroutine, at most once per frame, and touches only what changed.
func (t *Tab) draw() {
	prev := t.drawn
	first := prev.Rev == 0
	v := t.session.View(&prev)
	if !first && v.Rev == prev.Rev {
		t.probe.Drawn(v.Rev)
		return
	}
	if trace.Enabled() {
		trace.Mark("draw", replyLen(v.Items))
	}
	if first || !sameBacking(v.Items, prev.Items) {
		t.chat.SetItems(v.Items)
		if first || len(v.Items) != len(prev.Items) {
			prompts := model.UserPrompts(v.Items)
			t.composer.prompt.Editor.SetHistory(prompts)
			t.firstPrompt = ""
			if len(prompts) > 0 {
				t.firstPrompt = titleWords(prompts[0])
			}
		}
		if v.FirstPrompt != "" {
			// Only the end is shown yet: its first prompt is not the
			// session's.
			t.firstPrompt = titleWords(v.FirstPrompt)
		}
		if trace.Enabled() {
			trace.Mark("items", len(v.Items))
		}
		if f := t.panels.findOnOpen; f.query != "" && len(v.Items) > 0 && t.session.SessionFile() == f.path {
			t.panels.findOnOpen = findTarget{}
			t.find.SetQuery(f.query)
		}
	}
	if !first && v.FirstPrompt != "" && v.FirstPrompt != prev.FirstPrompt {
		t.firstPrompt = titleWords(v.FirstPrompt)
	}
	if first || !sameBacking(v.Cards, prev.Cards) {
		t.sidebar.SetCards(v.Cards)
	}
	t.status.SetStatus(v.Status)
	if first || !slices.Equal(v.Models, prev.Models) {
		t.models.SetModels(v.Models)
	}
	t.models.SetCurrent(v.ModelProvider, v.ModelID)
	if first || !slices.Equal(v.Levels, prev.Levels) {
		t.thinking.SetLevels(v.Levels)
	}
	t.thinking.SetCurrent(v.Thinking)
	t.composer.prompt.SetStreaming(v.Running)
	t.composer.prompt.SetCommandRunning(v.BashRunning)
	t.tickBash(v.BashRunning)
	if first || !slices.Equal(v.Steering, prev.Steering) || !slices.Equal(v.FollowUp, prev.FollowUp) {
		t.composer.prompt.SetQueue(v.Steering, v.FollowUp)
	}
	if first || !slices.Equal(v.Waiting, prev.Waiting) {
		t.composer.prompt.SetWaiting(v.Waiting)
	}
	t.composer.prompt.SetQueueNote(v.QueueNote)
	if name := sessionLabel(v.SessionName, t.firstPrompt); name != t.name.Text {
		t.name.SetText(name)
	}
	t.modelSetup.update(v)
	t.panels.updateWelcome(v)
	if folder := t.where(true); folder != t.folder.Text {
		t.folder.SetText(folder)
	}
	if title := windowTitle(v.Title, v.SessionName, t.firstPrompt, t.where(false)); title != t.title {
		t.title = title
		if t.isCurrent() {
			t.win.SetTitle(title)
		}
	}
	if first || model.BannerSeq(v.Banner) != model.BannerSeq(prev.Banner) {
		t.showBanner(v.Banner)
	}
	if (v.Retry == nil) != (prev.Retry == nil) || (v.Retry != nil && *v.Retry != *prev.Retry) {
		t.retry.Set(v.Retry)
	}
	if !slices.Equal(v.Refused, prev.Refused) {
		t.commands.learnRefused(v.Refused)
	}
	if first || v.WidgetsRev != prev.WidgetsRev {
		t.drawWidgets(v.Widgets, prev.Widgets)
	}
	t.drawn = v
	t.right.draw(&v, &prev)
	t.draft.follow()
	t.probe.Drawn(v.Rev)
	t.shell.tabDrawn(t)
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

// sessionLabel names a session in the header: its name, else its first
// prompt's words.
func sessionLabel(name, firstPrompt string) string {
	switch {
	case name != "":
		return name
	case firstPrompt != "":
		return firstPrompt
	}
	return "Untitled session"
}

// windowTitle is "session — folder — KnightCode": the title an extension
// set, else the session's name, else its first prompt's words.
func windowTitle(extTitle, name, firstPrompt, folder string) string {
	if extTitle != "" {
		name = extTitle
	} else if name == "" {
		name = firstPrompt
	}
	parts := []string{}
	if name != "" {
		parts = append(parts, name)
	}
	if folder != "" && folder != "." && folder != string(filepath.Separator) {
		parts = append(parts, folder)
	}
	return strings.Join(append(parts, appTitle), " — ")
}

// titleWords are the first words of a prompt, enough to tell it apart.
func titleWords(s string) string {
	words := strings.Fields(s)
	out := ""
	for _, w := range words {
		if len([]rune(out))+len([]rune(w)) > 40 {
			return out + "…"
		}
		if out != "" {
			out += " "
		}
		out += w
	}
	return out
}

// showBanner puts up what the session says about the agent process — it
// could not start, does not answer, crashed or ended the session — or takes
// the banner down. The transcript and the draft stay as they are.
func (t *Tab) showBanner(b *model.BannerState) {
	if b == nil {
		if t.banner.Visible() {
			t.banner.Hide()
			t.body.Refresh()
		}
		return
	}
	t.banner.SetMessage(b.Title, b.Detail, b.Level)
	t.banner.Show()
	t.body.Refresh()
}

// drawWidgets places the extensions' text blocks above or below the editor.
func (t *Tab) drawWidgets(now, before map[string]model.ExtWidget) {
	for key, old := range before {
		if _, still := now[key]; !still {
			t.blocks(old.Below).Set(key, nil)
		}
	}
	for key, wd := range now {
		if old, ok := before[key]; ok && old.Below != wd.Below {
			t.blocks(old.Below).Set(key, nil)
		}
		t.blocks(wd.Below).Set(key, wd.Lines)
	}
}

func (t *Tab) blocks(below bool) *prompt.ExtensionBlocks {
	if below {
		return t.below
	}
	return t.above
}

// tickBash moves the elapsed time of running !commands on once a second,
// only while one runs.
func (t *Tab) tickBash(running bool) {
	switch {
	case running && t.stopBashTick == nil:
		t.stopBashTick = uiloop.Tick(t.do, time.Second, func() {
			t.session.TickBash()
			t.Invalidate()
		})
	case !running && t.stopBashTick != nil:
		t.stopBashTick()
		t.stopBashTick = nil
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
func (t *Tab) drawPaced() time.Duration {
	if t.shell.loopEnded.Load() {
		return uiloop.FrameInterval
	}
	before := kit.LinesDrawn()
	t.draw()
	return frameGap(kit.LinesDrawn()-before, t.session.ReplyStreaming())
}

// streamFrameGap is the least wait between redraws while a reply streams.
// Every redraw repaints the whole window (Fyne has no partial repaint),
// which on a software renderer costs about as much as the text on screen:
// 10 to 15 ms of CPU for a window of text. A model writes faster than
// anyone reads; eight redraws a second keep the reply moving on screen at
// a fraction of the cost of one per event. The frames loop holds this gap
// through the model's pauses while the reply streams (NewHeldFrames), and
// the end of the reply is drawn at once.
const streamFrameGap = 125 * time.Millisecond

func frameGap(newLines uint64, streaming bool) time.Duration {
	gap := time.Duration(newLines) * linesPerFrameMs * time.Millisecond
	if streaming {
		gap = max(gap, streamFrameGap)
	}
	return min(max(gap, uiloop.FrameInterval), uiloop.MaxFrameGap)
}

// AfterPaint implements painter.
func (t *Tab) AfterPaint(f func()) {
	var once sync.Once
	done := func() { once.Do(f) }
	rev := t.session.Rev()
	time.AfterFunc(uiloop.PaintWaitMax, done)
	t.do(func() { t.probe.Wait(rev, done, t.drawn.Rev) })
	t.Invalidate()
}
