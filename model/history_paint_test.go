package model

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest"
	"knightcode.ai/desktop/sessionfiles"
)

// paintFrom paints s from the session file at path, as the controller
// does before the agent answers; the agent has that file open.
func paintFrom(t *testing.T, s *Session, path string) View {
	t.Helper()
	s.SetState(rpcconn.SessionState{SessionFile: path})
	msgs, err := sessionfiles.ReadTranscriptTail(context.Background(), path, PaintTail())
	if err != nil {
		t.Fatal(err)
	}
	first, err := sessionfiles.FirstPrompt(path)
	if err != nil {
		t.Fatal(err)
	}
	if !s.PaintHistory(path, msgs, first, -1, s.PaintToken()) {
		t.Fatal("the paint was dropped")
	}
	v := s.View(nil)
	if len(v.Items) == 0 || s.PaintedFrom() != path {
		t.Fatalf("painted %d items from %q", len(v.Items), s.PaintedFrom())
	}
	return v
}

// oneStep is the transcript the agent's answer for file makes, loaded at
// once.
func oneStep(t *testing.T, file string) View {
	one := NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, testsupport.AnswerMessages(t, file)))
	return one.View(nil)
}

// sameItems reports whether two views show the very same entries: IDs and
// revisions too, so the chat keeps its rows.
func sameItems(t *testing.T, what string, got, want []ChatItem) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: item %d\n got %+v\nwant %+v", what, i, got[i], want[i])
		}
	}
}

// cutLines writes the file at src without its last n lines to dst, as the
// file was before the agent wrote them; a partial > 0 keeps that many
// bytes of the next line, half written.
func cutLines(t *testing.T, src, dst string, n, partial int) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	keep := lines[:len(lines)-n]
	out := bytes.Join(keep, nil)
	if partial > 0 {
		out = append(out, lines[len(lines)-n][:partial]...)
	}
	if err := os.WriteFile(dst, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestPaintThenTheSameAnswerChangesNothing: the agent's answer has what
// was painted; the entries shown stay as they are (the very same items, not
// even copied) and the older ones come before them, making the transcript
// one step would.
func TestPaintThenTheSameAnswerChangesNothing(t *testing.T) {
	file := testsupport.GeneratedSession(t, 400)
	s := NewSession()
	painted := paintFrom(t, s, file)
	h := s.BeginHistory(testsupport.AnswerMessages(t, file), nil)
	answered := s.View(&painted)
	if !sameBacking(answered.Items, painted.Items) {
		t.Fatal("the answer changed the items painted")
	}
	// The cards gain their turn labels (the answer says how many turns
	// came before), and nothing else.
	if len(answered.Cards) != len(painted.Cards) {
		t.Fatalf("%d cards painted, %d after the answer", len(painted.Cards), len(answered.Cards))
	}
	for i, c := range withoutRevisions(answered.Cards) {
		p := withoutRevisions(painted.Cards)[i]
		if p.Turn != 0 || c.Turn == 0 {
			t.Fatalf("card %d: turn %d painted, %d answered", i, p.Turn, c.Turn)
		}
		p.Turn = c.Turn
		if !reflect.DeepEqual(c, p) {
			t.Fatalf("card %d\n painted %+v\nanswered %+v", i, p, c)
		}
	}
	want := oneStep(t, file)
	// The title is the session's first prompt all along.
	if first := UserPrompts(want.Items)[0]; painted.FirstPrompt != first || answered.FirstPrompt != first || UserPrompts(painted.Items)[0] == first {
		t.Fatalf("first prompt %q painted, %q answered, want %q", painted.FirstPrompt, answered.FirstPrompt, first)
	}
	h.Finish(context.Background())
	whole := s.View(&answered)
	sameItems(t, "painted entries after the older ones came", whole.Items[len(whole.Items)-len(painted.Items):], painted.Items)
	sameTranscript(t, "whole", withoutIDs(whole), withoutIDs(want))
	if whole.FirstPrompt != "" {
		t.Fatalf("first prompt %q once the whole transcript is there", whole.FirstPrompt)
	}
	if s.PaintedFrom() != "" {
		t.Fatal("still marked painted")
	}
}

// TestAnswerWithMoreThanPainted: the agent wrote messages after the window
// read the file; they follow the painted entries, which stay.
func TestAnswerWithMoreThanPainted(t *testing.T) {
	full := testsupport.GeneratedSession(t, 400)
	file := filepath.Join(t.TempDir(), "s.jsonl")
	cutLines(t, full, file, 3, 0)
	s := NewSession()
	painted := paintFrom(t, s, file)
	cutLines(t, full, file, 0, 0)
	h := s.BeginHistory(testsupport.AnswerMessages(t, file), nil)
	answered := s.View(&painted)
	if len(answered.Items) <= len(painted.Items) {
		t.Fatalf("%d items after the answer, %d painted: the newer ones are missing", len(answered.Items), len(painted.Items))
	}
	sameItems(t, "painted entries", answered.Items[:len(painted.Items)], painted.Items)
	h.Finish(context.Background())
	sameTranscript(t, "whole", withoutIDs(s.View(nil)), withoutIDs(oneStep(t, file)))
}

// TestPaintOfAHalfWrittenLine: the file was read while the agent wrote its
// last line; the paint leaves that line out and the answer adds it.
func TestPaintOfAHalfWrittenLine(t *testing.T) {
	full := testsupport.GeneratedSession(t, 400)
	file := filepath.Join(t.TempDir(), "s.jsonl")
	cutLines(t, full, file, 1, 40)
	s := NewSession()
	painted := paintFrom(t, s, file)
	cutLines(t, full, file, 0, 0)
	h := s.BeginHistory(testsupport.AnswerMessages(t, file), nil)
	answered := s.View(&painted)
	sameItems(t, "painted entries", answered.Items[:len(painted.Items)], painted.Items)
	h.Finish(context.Background())
	sameTranscript(t, "whole", withoutIDs(s.View(nil)), withoutIDs(oneStep(t, file)))
}

// TestAnswerOfAnotherSessionReplacesThePaint: the agent opened another
// session, or has other messages in this one: its answer is shown, not
// the paint.
func TestAnswerOfAnotherSessionReplacesThePaint(t *testing.T) {
	file := testsupport.GeneratedSession(t, 400)
	other := testsupport.GeneratedSession(t, 120)
	raw := testsupport.AnswerMessages(t, other)
	fresh := NewSession()
	fresh.BeginHistory(raw, nil)
	want := withoutIDs(fresh.View(nil))

	s := NewSession()
	paintFrom(t, s, file)
	s.SetState(rpcconn.SessionState{SessionFile: other})
	s.BeginHistory(raw, nil)
	sameTranscript(t, "another session", withoutIDs(s.View(nil)), want)

	// The same file name, other messages: the painted entries go.
	s = NewSession()
	paintFrom(t, s, file)
	s.BeginHistory(raw, nil)
	sameTranscript(t, "other messages", withoutIDs(s.View(nil)), want)
	if s.PaintedFrom() != "" {
		t.Fatal("still marked painted")
	}
}

// TestLatePaintIsDropped: the agent answered before the file was read; the
// paint would put an older state over it, and is dropped.
func TestLatePaintIsDropped(t *testing.T) {
	file := testsupport.GeneratedSession(t, 400)
	s := NewSession()
	s.SetState(rpcconn.SessionState{SessionFile: file})
	token := s.PaintToken()
	s.BeginHistory(testsupport.AnswerMessages(t, file), nil)
	answered := s.View(nil)
	msgs, err := sessionfiles.ReadTranscriptTail(context.Background(), file, PaintTail())
	if err != nil {
		t.Fatal(err)
	}
	if s.PaintHistory(file, msgs, "", -1, token) {
		t.Fatal("a paint after the answer was applied")
	}
	if v := s.View(&answered); v.Rev != answered.Rev {
		t.Fatal("a dropped paint changed the session")
	}

	// Cancelled (the agent did not open the session): dropped too.
	s = NewSession()
	token = s.PaintToken()
	if s.CancelPaint(file) {
		t.Fatal("nothing was painted, yet CancelPaint says it was")
	}
	if s.PaintHistory(file, msgs, "", -1, token) {
		t.Fatal("a cancelled paint was applied")
	}
}

// TestControllerPaintsBeforeTheAgentAnswers opens a session with an agent
// that answers get_messages only once a gate file exists: the last screen
// is painted from the file before, and the answer keeps it.
func TestControllerPaintsBeforeTheAgentAnswers(t *testing.T) {
	file := testsupport.GeneratedSession(t, 1500)
	gate := filepath.Join(t.TempDir(), "gate")
	path, env := rpctest.Command()
	s := NewSession()
	c := NewController(s, &recordingUI{}, rpcconn.Options{Path: path, Env: env, Dir: t.TempDir(),
		Args: []string{"--session", file, "--fake-messages-gate", gate}})
	c.Start()
	t.Cleanup(c.Shutdown)
	testsupport.Eventually(t, "painted from the file", func() bool { return s.PaintedFrom() == file })
	painted := s.View(nil)
	// Sent before the agent answered: it waits, out of the transcript,
	// and goes once the transcript is in.
	c.Send("sent while painted", nil, false, nil)
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	want := oneStep(t, file)
	testsupport.Eventually(t, "the whole transcript", func() bool { return len(s.View(nil).Items) >= len(want.Items) })
	testsupport.Eventually(t, "its tool cards", func() bool { return len(s.View(nil).Cards) >= len(want.Cards) })
	testsupport.Eventually(t, "the reply to what was sent", func() bool {
		v := s.View(nil)
		return len(v.Items) == len(want.Items)+2 && !v.Running && v.Items[len(want.Items)].Text == "sent while painted" && v.Items[len(v.Items)-1].Kind == ChatAssistant
	})
	whole := s.View(nil)
	n := len(want.Items)
	sameItems(t, "painted entries", whole.Items[n-len(painted.Items):n], painted.Items)
	whole.Items = whole.Items[:n]
	sameTranscript(t, "opened", withoutIDs(whole), withoutIDs(want))
}

// sameBacking reports whether two slices are the very same data: a View
// reuses its predecessor's slices for what did not change.
func sameBacking[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// TestCountTurns: replies are counted by the role at their head; a message
// whose role is not there leaves the count unknown, and the first screen's
// cards without turn labels until the rest is converted.
func TestCountTurns(t *testing.T) {
	raw := rawMessages(`{"role":"user","content":"a"}`, `{"role": "assistant","content":[]}`,
		`{"role":"toolResult","toolCallId":"x"}`, `{"role":"assistant","content":[]}`)
	if n, ok := countTurns(raw); n != 2 || !ok {
		t.Fatalf("%d turns, %v", n, ok)
	}
	if _, ok := countTurns(append(raw, json.RawMessage(`{"content":[{"type":"text","text":"a reply long enough to push its role out of the head"}],"role":"assistant"}`))); ok {
		t.Fatal("counted a message whose role is not at its head")
	}
}

// switchableSession is a generated session whose working folder exists:
// the agent refuses to switch to one whose folder is gone.
func switchableSession(t *testing.T, entries int) string {
	file, err := sessionfiles.CopyToFolder(testsupport.GeneratedSession(t, entries), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// TestControllerPaintsASwitchedSession: a session opened from the browser
// (switch_session) is painted from its file before the agent answers
// get_messages, and the answer keeps what was painted.
func TestControllerPaintsASwitchedSession(t *testing.T) {
	file := switchableSession(t, 600)
	gate := filepath.Join(t.TempDir(), "gate")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c, s, _ := startController(t, "--fake-messages-gate", gate)
	if err := os.Remove(gate); err != nil {
		t.Fatal(err)
	}
	c.SwitchSession(file)
	testsupport.Eventually(t, "painted from the file", func() bool { return s.PaintedFrom() == file })
	painted := s.View(nil)
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	want := oneStep(t, file)
	testsupport.Eventually(t, "the whole transcript", func() bool { return len(s.View(nil).Items) >= len(want.Items) })
	whole := s.View(nil)
	sameItems(t, "painted entries", whole.Items[len(whole.Items)-len(painted.Items):], painted.Items)
}

// TestControllerUnpaintsADeclinedSwitch: an extension declines opening the
// session; whatever was painted of it goes, and the agent's own transcript
// is shown again.
func TestControllerUnpaintsADeclinedSwitch(t *testing.T) {
	file := switchableSession(t, 600)
	gate := filepath.Join(t.TempDir(), "gate")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c, s, _ := startController(t, "--fake-messages-gate", gate, "--fake-cancel-switch")
	c.SwitchSession(file)
	testsupport.Eventually(t, "the decline said, nothing of the file shown", func() bool {
		v := s.View(nil)
		return len(v.Items) == 1 && v.Items[0].Kind == ChatNotice && strings.Contains(v.Items[0].Text, "declined") && s.PaintedFrom() == ""
	})
}

// TestPaintNumbersTheTurnsFromTheFile: a linear file's replies, counted by
// their heads, number the painted cards' turns as the agent's answer will,
// so the answer leaves the sidebar as it is: the very same cards.
func TestPaintNumbersTheTurnsFromTheFile(t *testing.T) {
	file := testsupport.GeneratedSession(t, 400)
	s := NewSession()
	s.SetState(rpcconn.SessionState{SessionFile: file})
	msgs, err := sessionfiles.ReadTranscriptTail(context.Background(), file, PaintTail())
	if err != nil {
		t.Fatal(err)
	}
	replies, linear, err := sessionfiles.CountReplies(context.Background(), file)
	before := turnsBeforePaint(msgs, replies, linear && err == nil)
	if before <= 0 {
		t.Fatalf("%d turns before the end of a linear session of 400 entries (%d replies, linear %v, %v)", before, replies, linear, err)
	}
	if !s.PaintHistory(file, msgs, "", before, s.PaintToken()) {
		t.Fatal("the paint was dropped")
	}
	painted := s.View(nil)
	if len(painted.Cards) == 0 {
		t.Fatal("no tool cards painted")
	}
	h := s.BeginHistory(testsupport.AnswerMessages(t, file), nil)
	answered := s.View(&painted)
	if !sameBacking(answered.Cards, painted.Cards) {
		t.Fatalf("the answer changed the cards painted:\n painted %+v\nanswered %+v", painted.Cards[0], answered.Cards[0])
	}
	h.Finish(context.Background())
	want := oneStep(t, file)
	// The painted cards are the last of the whole session's, turns and all.
	got := withoutRevisions(s.View(&answered).Cards)
	all := withoutRevisions(want.Cards)
	if len(got) != len(all) {
		t.Fatalf("%d cards after the answer, %d in one step", len(got), len(all))
	}
	shown := withoutRevisions(painted.Cards)
	for i, c := range shown {
		if w := all[len(all)-len(shown)+i]; c.Turn != w.Turn || c.Turn == 0 {
			t.Fatalf("painted card %d: turn %d, the whole session numbers it %d", i, c.Turn, w.Turn)
		}
	}
}

// turnsBeforePaint trusts only a linear count that covers the end read.
func TestTurnsBeforePaint(t *testing.T) {
	msgs := []rpcconn.Message{{Role: rpcconn.RoleUser}, {Role: rpcconn.RoleAssistant}, {Role: "toolResult"}, {Role: rpcconn.RoleAssistant}}
	for _, c := range []struct {
		replies int
		linear  bool
		want    int
	}{{10, true, 8}, {2, true, 0}, {1, true, -1}, {10, false, -1}} {
		if got := turnsBeforePaint(msgs, c.replies, c.linear); got != c.want {
			t.Errorf("%d replies, linear %v: %d turns before, want %d", c.replies, c.linear, got, c.want)
		}
	}
}
