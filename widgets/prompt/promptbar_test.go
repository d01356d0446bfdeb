package prompt

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func showPromptBar(t *testing.T) (*PromptBar, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	b := NewPromptBar()
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(560, 180))
	return b, w
}

func TestPromptBarIdleAndStreaming(t *testing.T) {
	b, w := showPromptBar(t)
	var got []submitted
	b.OnSubmit = func(text string, mode SubmitMode) { got = append(got, submitted{text, mode}) }
	stops := 0
	b.OnStop = func() { stops++ }

	b.Editor.SetText("explain the diff")
	test.AssertRendersToMarkup(t, "prompt/bar_idle.xml", w.Canvas())
	if b.stop.Visible() {
		t.Fatal("Stop shown while idle")
	}
	test.Tap(b.send)
	key(b.Editor, fyne.KeyEscape) // idle: nothing to stop
	if stops != 0 {
		t.Fatal("Esc while idle stopped the agent")
	}

	b.SetStreaming(true)
	b.SetQueue([]string{"use the helper"}, []string{"then run the tests"})
	test.AssertRendersToMarkup(t, "prompt/bar_streaming.xml", w.Canvas())
	if b.send.Text != "Steer" || !b.stop.Visible() || b.hint.Text != promptHintStreaming {
		t.Fatalf("streaming bar: button %q, stop visible %v, hint %q", b.send.Text, b.stop.Visible(), b.hint.Text)
	}
	test.Tap(b.send)
	test.Tap(b.stop)
	key(b.Editor, fyne.KeyEscape)
	if stops != 2 {
		t.Fatalf("stops = %d, want 2 (button and Esc)", stops)
	}
	want := []submitted{{"explain the diff", SubmitPrompt}, {"explain the diff", SubmitSteer}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("submitted %+v, want %+v", got, want)
	}

	b.SetStreaming(false)
	b.SetQueue(nil, nil)
	if b.stop.Visible() || b.queue.Visible() || b.send.Text != "Send" {
		t.Fatal("bar did not return to idle")
	}
	test.AssertRendersToMarkup(t, "prompt/bar_idle.xml", w.Canvas())
}

func TestQueueStrip(t *testing.T) {
	test.NewTempApp(t)
	q := NewQueueStrip()
	w := test.NewTempWindow(t, q)
	w.Resize(fyne.NewSize(320, 140))
	if q.Visible() {
		t.Fatal("empty strip visible")
	}
	long := "please also update the documentation\nin README.md and in the design notes, then rerun everything " + strings.Repeat("again ", 20)
	q.SetQueue([]string{"stop editing main.go"}, []string{long, "b", "c", "d"})
	if !q.Visible() {
		t.Fatal("strip hidden with messages waiting")
	}
	test.AssertRendersToMarkup(t, "prompt/queue.xml", w.Canvas())
	q.SetQueue(nil, nil)
	if q.Visible() {
		t.Fatal("strip visible after the queue emptied")
	}
}

func TestQueueStripWaitingAndNote(t *testing.T) {
	b, w := showPromptBar(t)
	b.SetWaiting([]string{"typed while the agent starts"})
	b.SetQueueNote("Waiting for the agent to start: sent when it is ready")
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"waiting", "typed while the agent starts", "Waiting for the agent to start"} {
		if !strings.Contains(markup, want) {
			t.Fatalf("strip does not show %q:\n%s", want, markup)
		}
	}
	h := b.MinSize().Height
	b.SetQueueNote("")
	if b.MinSize().Height >= h || strings.Contains(test.RenderToMarkup(w.Canvas()), "Waiting for the agent") {
		t.Fatal("the note stays after it was cleared")
	}
	b.SetWaiting(nil)
	b.SetQueue([]string{"kept"}, nil)
	b.SetQueueNote("Still queued in the agent")
	if !b.queue.Visible() || !strings.Contains(test.RenderToMarkup(w.Canvas()), "Still queued in the agent") {
		t.Fatal("note over the agent's queue not shown")
	}
	b.SetQueue(nil, nil)
	if b.queue.Visible() {
		t.Fatal("strip visible with nothing waiting")
	}
}

func TestPromptBarStopsACommand(t *testing.T) {
	b, _ := showPromptBar(t)
	stops := 0
	b.OnStop = func() { stops++ }
	b.SetCommandRunning(true)
	if !b.stop.Visible() || b.send.Text != "Send" || b.hint.Text != promptHintCommand {
		t.Fatalf("while a command runs: stop %v, button %q, hint %q", b.stop.Visible(), b.send.Text, b.hint.Text)
	}
	test.Tap(b.stop)
	key(b.Editor, fyne.KeyEscape)
	if stops != 2 {
		t.Fatalf("stops = %d, want 2", stops)
	}
	// A run starting and ending meanwhile leaves Stop for the command.
	b.SetStreaming(true)
	b.SetStreaming(false)
	if !b.stop.Visible() {
		t.Fatal("Stop hidden while the command still runs")
	}
	b.SetCommandRunning(false)
	if b.stop.Visible() || b.hint.Text != promptHintIdle {
		t.Fatal("Stop stays after the command ended")
	}
}
