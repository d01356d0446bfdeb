package model

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
)

// generatedHistory is the fake agent's get_messages answer for a generated
// session, cut into messages.
func generatedHistory(tb testing.TB, entries int) []json.RawMessage {
	tb.Helper()
	return testsupport.AnswerMessages(tb, testsupport.GeneratedSession(tb, entries))
}

// withoutRevisions drops what only counts changes: a card converted twice
// has a higher Revision than one converted once, and that is all.
func withoutRevisions(cards []ToolCard) []ToolCard {
	out := append([]ToolCard(nil), cards...)
	for i := range out {
		out[i].Revision = 0
	}
	return out
}

func sameTranscript(t *testing.T, what string, got, want View) {
	t.Helper()
	if len(got.Items) != len(want.Items) {
		t.Fatalf("%s: %d items, want %d", what, len(got.Items), len(want.Items))
	}
	for i := range want.Items {
		if !reflect.DeepEqual(got.Items[i], want.Items[i]) {
			t.Fatalf("%s: item %d\n got %+v\nwant %+v", what, i, got.Items[i], want.Items[i])
		}
	}
	gc, wc := withoutRevisions(got.Cards), withoutRevisions(want.Cards)
	if len(gc) != len(wc) {
		t.Fatalf("%s: %d cards, want %d", what, len(gc), len(wc))
	}
	for i := range wc {
		if !reflect.DeepEqual(gc[i], wc[i]) {
			t.Fatalf("%s: card %d\n got %+v\nwant %+v", what, i, gc[i], wc[i])
		}
	}
}

// TestTwoStepHistoryIsTheOneStepHistory loads a generated session in two
// steps, split at many places, and in one: the same transcript and cards,
// and the first step is exactly the end of it.
func TestTwoStepHistoryIsTheOneStepHistory(t *testing.T) {
	raw := generatedHistory(t, 400)
	one := NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, raw))
	want := one.View(nil)

	for _, entries := range []int{1, 2, 3, 5, 8, 13, 21, 64, 1000} {
		s := NewSession()
		h := s.beginHistory(raw, nil, entries, firstScreenBytes)
		first := s.View(nil)
		if entries < 400 && (len(first.Items) == 0 || len(first.Items) > entries) {
			t.Fatalf("%d entries: the first step shows %d items", entries, len(first.Items))
		}
		// The first screen is the end of the whole transcript, chips and
		// all (tool results convert with their calls), IDs included.
		tail := want.Items[len(want.Items)-len(first.Items):]
		for i := range tail {
			if !reflect.DeepEqual(first.Items[i], tail[i]) {
				t.Fatalf("%d entries: first step item %d\n got %+v\nwant %+v", entries, i, first.Items[i], tail[i])
			}
		}
		// Its cards too, turn numbers and all: the turns before the
		// first screen are counted from the messages' heads.
		wantCards := withoutRevisions(want.Cards[len(want.Cards)-len(first.Cards):])
		for i, c := range withoutRevisions(first.Cards) {
			if !reflect.DeepEqual(c, wantCards[i]) {
				t.Fatalf("%d entries: first step card %d\n got %+v\nwant %+v", entries, i, c, wantCards[i])
			}
		}
		h.Finish(context.Background())
		sameTranscript(t, fmt.Sprintf("%d entries", entries), s.View(nil), want)
	}
}

// TestFirstStepDecodesOnlyTheFirstScreen spoils every message before the
// first screen but its head: the first step must not notice.
func TestFirstStepDecodesOnlyTheFirstScreen(t *testing.T) {
	raw := generatedHistory(t, 400)
	good := NewSession()
	h := good.beginHistory(raw, nil, 8, firstScreenBytes)
	spoilt := append([]json.RawMessage(nil), raw...)
	for i := range h.split {
		// Only the heads are left, where countTurns reads the roles.
		spoilt[i] = raw[i][:min(len(raw[i]), turnsHead)]
	}
	s := NewSession()
	hs := s.beginHistory(spoilt, nil, 8, firstScreenBytes)
	if hs.split != h.split || hs.problems != (readProblems{}) {
		t.Fatalf("split %d (want %d), problems %+v", hs.split, h.split, hs.problems)
	}
	sameTranscript(t, "first step", s.View(nil), good.View(nil))

	// The byte budget bounds it too.
	s = NewSession()
	hb := s.beginHistory(raw, nil, 1000, 20_000)
	size := 0
	for _, r := range raw[hb.split+1:] {
		size += len(r)
	}
	if hb.split == 0 || size >= 20_000 {
		t.Fatalf("byte budget: split %d, %d bytes after the first", hb.split, size)
	}
}

func TestHistoryResultsAcrossTheSplit(t *testing.T) {
	call := func(id string) string {
		return `{"role":"assistant","content":[{"type":"toolCall","id":"` + id + `","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse","timestamp":1000}`
	}
	result := func(id string) string {
		return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"bash","content":[{"type":"text","text":"out ` + id + `"}],"timestamp":2000}`
	}
	raw := rawMessages(
		`{"role":"user","content":"go"}`,
		// c1's result is shown after an extension's note: the split
		// falls between the call and its result.
		call("c1"),
		`{"role":"custom","customType":"ext","content":"note","display":true}`,
		result("c1"),
		// c2's result comes before its call (no agent does that).
		result("c2"),
		call("c2"),
	)
	one := NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, raw))
	want := one.View(nil)
	for entries := 1; entries <= 3; entries++ {
		s := NewSession()
		h := s.beginHistory(raw, nil, entries, firstScreenBytes)
		h.Finish(context.Background())
		got := s.View(nil)
		for i, it := range got.Items {
			for b, blk := range it.Blocks {
				if blk.ToolStatus != want.Items[i].Blocks[b].ToolStatus || blk.ToolStatus != ToolDone {
					t.Fatalf("%d entries: item %d chip %d is %v, want done", entries, i, b, blk.ToolStatus)
				}
			}
		}
		// The fixed-up chip changed once more; everything else is the
		// one-step transcript.
		for i := range got.Items {
			got.Items[i].Revision = want.Items[i].Revision
		}
		sameTranscript(t, fmt.Sprintf("%d entries", entries), got, want)
	}
}

func rawMessages(msgs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		out[i] = json.RawMessage(m)
	}
	return out
}

// TestUnreadableMessagesAreMarkedNotLost: a message that is no message is
// replaced by a notice, one read in part is kept, the rest all shows, and a
// notice at the top sums it up.
func TestUnreadableMessagesAreMarkedNotLost(t *testing.T) {
	raw := rawMessages(
		`{"role":"user","content":"first"}`,
		`{"role":"assistant","content":[{"type":"text","text":"one"}],"stopReason":"stop"}`,
		`{"role":"user","content":"broken"`,
		`tru`,
		`{"role":"user","content":"after the broken ones"}`,
		`{"role":"user","content":"late","timestamp":"yesterday"}`,
		`42`,
		`{"role":"assistant","content":[{"type":"text","text":"last"}],"stopReason":"stop"}`,
	)
	var all View
	for _, entries := range []int{1000, 1, 2, 3, 4, 5, 6, 7} {
		s := NewSession()
		h := s.beginHistory(raw, nil, entries, firstScreenBytes)
		h.Finish(context.Background())
		v := s.View(nil)
		var texts []string
		for _, it := range v.Items {
			texts = append(texts, it.Text+joinBlocks(it.Blocks))
		}
		got := strings.Join(texts, " | ")
		run := "Messages 3 to 4 of 8 could not be read"
		if entries == 5 {
			run = "Message 4 of 8 could not be read"
		}
		for _, want := range []string{"first", "one", run, "after the broken ones", "late", "Message 7 of 8 could not be read", "last"} {
			if !strings.Contains(got, want) {
				t.Fatalf("%d entries: %q missing from %s", entries, want, got)
			}
		}
		top := v.Items[0]
		if top.Kind != ChatNotice || !strings.Contains(top.Text, "3 of its 8 messages are left out") || !strings.Contains(top.Text, "1 were read only in part") {
			t.Fatalf("%d entries: top notice %+v", entries, top)
		}
		switch entries {
		case 1000:
			all = v
		case 5:
			// The split falls inside the run of unreadable messages 3
			// and 4: each step marks its part.
			if len(v.Items) != len(all.Items)+1 || !strings.Contains(v.Items[3].Text, "Message 3 of 8") || !strings.Contains(v.Items[4].Text, "Message 4 of 8") {
				t.Fatalf("split run: %+v", v.Items)
			}
		default:
			sameTranscript(t, fmt.Sprintf("%d entries", entries), v, all)
		}
	}

	// Messages that break off: what came before shows, and why the rest
	// does not.
	s := NewSession()
	h := s.BeginHistory(raw[:2], fmt.Errorf("malformed JSON: unterminated string"))
	h.Finish(context.Background())
	v := s.View(nil)
	if len(v.Items) != 3 || !strings.Contains(v.Items[2].Text, "break off after message 2") {
		t.Fatalf("broken-off answer: %+v", v.Items)
	}
}

func joinBlocks(blocks []ChatBlock) string {
	var b strings.Builder
	for _, blk := range blocks {
		b.WriteString(blk.Text)
	}
	return b.String()
}

// TestHistoryFinishKeepsWhatHappenedMeanwhile: the window goes on living
// between the two steps; what it added stays after the older history.
func TestHistoryFinishKeepsWhatHappenedMeanwhile(t *testing.T) {
	raw := generatedHistory(t, 200)
	one := NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, raw))
	want := one.View(nil)

	s := NewSession()
	h := s.beginHistory(raw, nil, 4, firstScreenBytes)
	bash := s.BashStart("ls")
	apply(s, decode(t,
		`{"type":"agent_start"}`,
		`{"type":"turn_start"}`,
		`{"type":"message_start","message":{"role":"assistant","content":[]}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"live"}}`,
		`{"type":"tool_execution_start","toolCallId":"live1","toolName":"bash","args":{"command":"pwd"}}`,
	))
	h.Finish(context.Background())
	s.BashOutput(bash, "a.go\n")
	s.BashEnd(bash, rpcconn.BashResult{Output: "a.go\n"}, nil)
	apply(s, decode(t, `{"type":"tool_execution_end","toolCallId":"live1","toolName":"bash","result":{"content":[{"type":"text","text":"/x"}]}}`))

	v := s.View(nil)
	n := len(want.Items)
	if len(v.Items) != n+2 {
		t.Fatalf("%d items, want %d and two live ones", len(v.Items), n)
	}
	sameTranscript(t, "history", View{Items: v.Items[:n], Cards: v.Cards[:len(want.Cards)]}, want)
	if b := v.Items[n]; b.Kind != ChatBash || b.Text != "a.go\n" || b.Streaming {
		t.Fatalf("the !command's entry after the prepend: %+v", b)
	}
	if l := v.Items[n+1]; l.Kind != ChatAssistant || !l.Streaming || joinBlocks(l.Blocks) != "live" {
		t.Fatalf("the live reply after the prepend: %+v", l)
	}
	last := v.Cards[len(v.Cards)-1]
	if last.ID != "live1" || last.Status != ToolDone || last.Turn != one.turn+1 {
		t.Fatalf("live tool card %+v, after %d turns of history", last, one.turn)
	}
}

func TestStaleHistoryFinishChangesNothing(t *testing.T) {
	s := NewSession()
	old := s.beginHistory(generatedHistory(t, 100), nil, 2, firstScreenBytes)
	newer := s.beginHistory(rawMessages(`{"role":"user","content":"other session"}`), nil, 2, firstScreenBytes)
	old.Finish(context.Background())
	newer.Finish(context.Background())
	if v := s.View(nil); len(v.Items) != 1 || v.Items[0].Text != "other session" || len(v.Cards) != 0 {
		t.Fatalf("%+v", v.Items)
	}
	// A bash handle from before a new history names nothing.
	h := s.BashStart("ls")
	s.LoadHistory(nil)
	s.BashOutput(h, "x")
	if v := s.View(nil); len(v.Items) != 0 {
		t.Fatalf("%+v", v.Items)
	}
}

// TestHistoryFinishRacesTheWindow runs the second step while views are
// taken and events applied, for the race detector.
func TestHistoryFinishRacesTheWindow(t *testing.T) {
	raw := generatedHistory(t, 300)
	s := NewSession()
	h := s.beginHistory(raw, nil, 4, firstScreenBytes)
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		var v View
		for {
			select {
			case <-done:
				return
			default:
			}
			v = s.View(&v)
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			id := fmt.Sprint("t", i)
			s.Apply(&rpcconn.ToolExecutionStart{ToolCallID: id, ToolName: "bash"})
			s.Apply(&rpcconn.ToolExecutionEnd{ToolCallID: id, ToolName: "bash"})
		}
	}()
	h.Finish(context.Background())
	close(done)
	wg.Wait()
	if v := s.View(nil); len(v.Items) < 100 {
		t.Fatalf("%d items", len(v.Items))
	}
}

func TestHistoryFinishStopsWithItsContext(t *testing.T) {
	raw := generatedHistory(t, 100)
	s := NewSession()
	h := s.beginHistory(raw, nil, 2, firstScreenBytes)
	n := len(s.View(nil).Items)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h.Finish(ctx)
	if got := len(s.View(nil).Items); got != n {
		t.Fatalf("%d items after a cancelled finish, %d before", got, n)
	}
}

func withoutIDs(v View) View {
	v.Items = append([]ChatItem(nil), v.Items...)
	for i := range v.Items {
		v.Items[i].ID = ""
	}
	return v
}

// TestControllerOpensALongSession opens a generated session through the
// fake agent: the whole transcript arrives, as one step would make it.
func TestControllerOpensALongSession(t *testing.T) {
	file := testsupport.GeneratedSession(t, 1500)
	one := NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, testsupport.AnswerMessages(t, file)))
	want := one.View(nil)
	_, s, _ := startController(t, "--session", file)
	testsupport.Eventually(t, "the whole transcript", func() bool { return len(s.View(nil).Items) >= len(want.Items) })
	testsupport.Eventually(t, "its tool cards", func() bool { return len(s.View(nil).Cards) >= len(want.Cards) })
	sameTranscript(t, "opened", withoutIDs(s.View(nil)), withoutIDs(want))
}

// A stored call with no stored result is not left running: the agent,
// started afresh, is not running it, and a running card would tick for
// ever in an idle window.
func TestHistoryCallWithoutResultEnds(t *testing.T) {
	raw := rawMessages(
		`{"role":"user","content":"go"}`,
		`{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse","timestamp":1000}`,
		`{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"out"}],"timestamp":2000}`,
		`{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"edit","arguments":{"path":"a.go"}}],"stopReason":"toolUse","timestamp":3000}`,
	)
	check := func(what string, v View) {
		t.Helper()
		if len(v.Cards) != 2 {
			t.Fatalf("%s: %d cards", what, len(v.Cards))
		}
		if c := v.Cards[0]; c.Status != ToolDone {
			t.Fatalf("%s: the answered call is %v", what, c.Status)
		}
		c := v.Cards[1]
		if c.Status != ToolFailed || c.Ended.IsZero() || !strings.Contains(c.Output, "No result was recorded") {
			t.Fatalf("%s: the unanswered call is %v, ended %v, output %q", what, c.Status, c.Ended, c.Output)
		}
		chip := v.Items[len(v.Items)-1].Blocks[0]
		if chip.ToolStatus != ToolFailed {
			t.Fatalf("%s: its chip is %v", what, chip.ToolStatus)
		}
	}
	one := NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, raw))
	check("one step", one.View(nil))
	for entries := 1; entries <= 3; entries++ {
		s := NewSession()
		h := s.beginHistory(raw, nil, entries, firstScreenBytes)
		h.Finish(context.Background())
		check(fmt.Sprintf("two steps, %d entries first", entries), s.View(nil))
	}
}
