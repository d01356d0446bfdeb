package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// TestWindowSystemPrompt: an agent that sends its system prompt as a
// message (pi 1.6; the fake with --fake-system-prompt) gets no chat turn
// for it; Session › System prompt… shows its sections as markdown, and a
// restart that loads the session from the agent keeps it out of the
// transcript too.
func TestWindowSystemPrompt(t *testing.T) {
	w, log := openTestWindow(t, "--fake-system-prompt", "--session-dir", t.TempDir())
	onUI(w.commands.actionSystemPrompt)
	if q := dialogSays(w); !strings.Contains(q, "has not sent its system prompt") {
		t.Fatalf("before the first turn the window said %q", q)
	}
	press(w, "Escape")
	typeAndSend(w, "hello")
	testsupport.Eventually(t, "the reply", func() bool { return settledReply(w) })
	kinds := func() []model.ChatKind {
		var out []model.ChatKind
		for _, it := range drawn(w).Items {
			out = append(out, it.Kind)
		}
		return out
	}
	if k := kinds(); len(k) != 2 || k[0] != model.ChatUser || k[1] != model.ChatAssistant {
		t.Fatalf("transcript kinds %v: the system message made a turn", k)
	}
	onUI(w.commands.actionSystemPrompt)
	var md string
	onUI(func() {
		k, ok := w.modals.top().(*keyDialog)
		if !ok {
			return
		}
		if s, ok := k.content.(*container.Scroll); ok {
			if rt, ok := s.Content.(*widget.RichText); ok {
				md = segmentsText(rt.Segments)
			}
		}
	})
	for _, want := range []string{"Preamble", "You are the fake KnightCode agent", "Tools", "read: Read file contents", "Rules"} {
		if !strings.Contains(md, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<tools>") {
		t.Errorf("the wrapping tag shows:\n%s", md)
	}
	press(w, "Escape")

	asked := len(sentOfType(t, log, "get_messages"))
	onUI(w.restart)
	testsupport.Eventually(t, "the session loaded again", func() bool {
		return len(sentOfType(t, log, "get_messages")) > asked && drawn(w).Conn == model.ConnReady && len(drawn(w).Items) >= 2
	})
	if k := kinds(); len(k) != 2 {
		t.Fatalf("after the restart the transcript kinds are %v", k)
	}
	if len(w.session.SystemPrompt()) != 3 {
		t.Errorf("after the restart the system prompt is %+v", w.session.SystemPrompt())
	}
}

// segmentsText is the text of rich text segments, lists' items included.
func segmentsText(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, seg := range segs {
		switch x := seg.(type) {
		case *widget.ListSegment:
			b.WriteString(segmentsText(x.Items))
		case *widget.ParagraphSegment:
			b.WriteString(segmentsText(x.Texts))
		default:
			b.WriteString(seg.Textual())
		}
		b.WriteString("\n")
	}
	return b.String()
}
