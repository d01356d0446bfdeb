package model

import (
	"slices"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// TestDialogIsPlainAndAnswersWithWhatWasSent: the window gets texts with
// control characters gone, the prefill as sent, and a choice answers with
// the option the extension sent, not its label.
func TestDialogIsPlainAndAnswersWithWhatWasSent(t *testing.T) {
	d := newDialog(&rpcconn.ExtensionUIRequest{ID: "7", Method: rpcconn.UISelect, Title: "Pick\x1b[1m",
		Message: "<b>which</b>\x07", Options: []string{"a\x1b", "b"}, TimeoutMs: 1500})
	if d.ID != "7" || d.Kind != DialogSelect || d.Title != "Pick[1m" || d.Message != "<b>which</b>" || d.Timeout != 1500*time.Millisecond {
		t.Fatalf("dialog %+v", d)
	}
	if !slices.Equal(d.Options, []string{"a", "b"}) {
		t.Fatalf("labels %q", d.Options)
	}
	if got := d.Choose(0).String(); got != "value=a\x1b" {
		t.Fatalf("choice answers %q", got)
	}
	in := newDialog(&rpcconn.ExtensionUIRequest{ID: "8", Method: rpcconn.UIInput, Placeholder: "na\x00me", Prefill: "x\x01"})
	if in.Kind != DialogInput || in.Placeholder != "name" || in.Prefill != "x\x01" || in.Timeout != 0 {
		t.Fatalf("input %+v", in)
	}
	for method, kind := range map[string]DialogKind{rpcconn.UIConfirm: DialogConfirm, rpcconn.UIEditor: DialogEditor} {
		if got := newDialog(&rpcconn.ExtensionUIRequest{Method: method}).Kind; got != kind {
			t.Errorf("%s is kind %d, want %d", method, got, kind)
		}
	}
	for _, a := range []struct {
		answer Answer
		want   string
	}{{AnswerCancelled(), "cancelled"}, {AnswerConfirmed(false), "confirmed=false"}, {AnswerText("hi"), "value=hi"}} {
		if a.answer.String() != a.want {
			t.Errorf("answer %q, want %q", a.answer, a.want)
		}
	}
}
