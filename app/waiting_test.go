package app

import (
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

// userItems are the transcript's prompts, as drawn.
func userItems(w *Tab) []model.ChatItem {
	var out []model.ChatItem
	for _, it := range drawn(w).Items {
		if it.Kind == model.ChatUser {
			out = append(out, it)
		}
	}
	return out
}

func editorText(w *Tab) (text string) {
	onUI(func() { text = w.composer.prompt.Editor.Text() })
	return text
}

// sendRaw sends text as Enter in the editor does, without typing it key by
// key (a 400 KB paste).
func sendRaw(w *Tab, text string) {
	onUI(func() {
		w.composer.prompt.Editor.SetText(text)
		w.composer.submit(text, 0)
	})
}

// bigPrompt is a pasted document of about 400 KB, lines of their own.
func bigPrompt() string {
	var b strings.Builder
	for i := 0; b.Len() < 400<<10; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("quokka ", 8))
		b.WriteString("\n")
	}
	return "Read this: " + b.String() + "the end"
}

// TestWindowPromptsToAnAgentThatStopsReading: an agent that answers the
// handshake, then never reads its stdin again. A pasted 400 KB prompt and a
// second one show in the transcript at once, waiting; after 10 s the window
// says the agent is not reading, and they are marked; Back to editor gives
// both texts back, exactly, and restarts the agent (the first went out to
// it). Sent to the restarted agent, which reads, each arrives once.
func TestWindowPromptsToAnAgentThatStopsReading(t *testing.T) {
	once := filepath.Join(t.TempDir(), "stopped")
	w, log := openTestWindow(t, "--fake-stop-reading-at=prompt", "--fake-stop-reading-once="+once)
	big := bigPrompt()
	sendRaw(w, big)
	sendRaw(w, "second zebra")
	items := userItems(w)
	if len(items) != 2 || items[0].Text != big || items[1].Text != "second zebra" || !items[0].Waiting || !items[1].Waiting {
		t.Fatalf("right after sending: %d prompts shown (want both, waiting)", len(items))
	}
	// Each prompt is marked 10 s after it was sent.
	testsupport.Eventually(t, "both prompts marked as not taken", func() bool {
		u := userItems(w)
		return len(u) == 2 && u[0].Stuck && u[1].Stuck
	})
	if v := drawn(w); v.Banner == nil || !strings.Contains(v.Banner.Title, "is not reading its input") {
		t.Fatalf("the banner: %+v", v.Banner)
	}
	onUI(func() { w.controller.TakeBack() })
	testsupport.Eventually(t, "both texts back in the editor", func() bool { return editorText(w) == big+"\n\nsecond zebra" })
	if n := len(userItems(w)); n != 0 {
		t.Fatalf("%d prompts still in the transcript after Back to editor", n)
	}
	// The first went out to the agent that stopped: it was restarted, and
	// the new one reads.
	testsupport.Eventually(t, "a new agent, which reads", func() bool { return len(sentOfType(t, log, "get_state")) >= 2 && drawn(w).Conn == model.ConnReady })
	if got := len(sentOfType(t, log, "prompt")); got != 0 {
		t.Fatalf("the agent took %d prompts after they were taken back", got)
	}

	// Sent again: each reaches the agent once, and shows once.
	onUI(func() { w.composer.prompt.Editor.SetText("") })
	sendRaw(w, big)
	sendRaw(w, "second zebra")
	testsupport.Eventually(t, "both answered", func() bool {
		v := drawn(w)
		return !v.Running && len(userItems(w)) == 2 && !userItems(w)[1].Waiting && len(v.Items) >= 4
	})
	var bigs, zebras int
	for _, r := range sentOfType(t, log, "prompt") {
		switch r["message"] {
		case big:
			bigs++
		case "second zebra":
			zebras++
		}
	}
	if bigs != 1 || zebras != 1 {
		t.Fatalf("the agent took the big prompt %d times and the second %d times", bigs, zebras)
	}
}

// TestWindowSendAgainRestartsAndDeliversOnce: prompts stuck at an agent that
// stopped reading go, with Send again, to a restarted agent, each once, in
// their places in the transcript.
func TestWindowSendAgainRestartsAndDeliversOnce(t *testing.T) {
	once := filepath.Join(t.TempDir(), "stopped")
	w, log := openTestWindow(t, "--fake-stop-reading-at=prompt", "--fake-stop-reading-once="+once)
	sendRaw(w, "first koala")
	sendRaw(w, "second zebra")
	testsupport.Eventually(t, "marked as not taken", func() bool {
		u := userItems(w)
		return len(u) == 2 && u[0].Stuck && u[1].Stuck
	})
	onUI(w.restart) // Send again (and the banner's Restart)
	testsupport.Eventually(t, "both answered by the new agent", func() bool {
		u := userItems(w)
		return !drawn(w).Running && len(u) == 2 && !u[0].Waiting && !u[1].Waiting && len(drawn(w).Items) >= 4
	})
	u := userItems(w)
	if u[0].Text != "first koala" || u[1].Text != "second zebra" {
		t.Fatalf("transcript prompts %q, %q", u[0].Text, u[1].Text)
	}
	counts := map[any]int{}
	for _, r := range sentOfType(t, log, "prompt") {
		counts[r["message"]]++
	}
	if counts["first koala"] != 1 || counts["second zebra"] != 1 {
		t.Fatalf("prompts the agents took: %v", counts)
	}
	if v := drawn(w); v.Banner != nil {
		t.Errorf("the banner stays: %+v", v.Banner)
	}
}
