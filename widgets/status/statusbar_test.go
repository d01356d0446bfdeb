package status

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

func TestStatusBar(t *testing.T) {
	test.NewTempApp(t)
	b := NewStatusBar()
	b.SetStatus(model.Status{Connection: "Starting…", ContextPercent: -1})
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(760, 40))
	test.AssertRendersToMarkup(t, "statusbar/starting.xml", w.Canvas())

	running := model.Status{Connection: "Connected", Connected: true, Running: true, TokensIn: 12345, TokensOut: 987,
		Cost: 0.0123, ContextPercent: 6.15, ContextTokens: 12300, ContextWindow: 200000,
		Activity: "Compacting…", Extension: map[string]string{"z": "lint ok", "a": "branch main"}}
	b.SetStatus(running)
	test.AssertRendersToMarkup(t, "statusbar/running.xml", w.Canvas())
	if b.ctxText.Text != "12.3k / 200k (6%)" || b.ctxValue < 0.06 || b.ctxValue > 0.07 {
		t.Fatalf("context %q value %v", b.ctxText.Text, b.ctxValue)
	}
	if b.ext.Text != "branch main · lint ok" {
		t.Fatalf("extensions %q", b.ext.Text)
	}

	// Only what changed is touched: the connection text object keeps its
	// identity and value when only tokens change.
	conn := b.conn
	running.TokensOut = 2500
	b.SetStatus(running)
	if b.conn != conn || b.tokens.Text != "12.3k in · 2.5k out" {
		t.Fatalf("tokens %q", b.tokens.Text)
	}

	b.SetStatus(model.Status{Connection: "Exited (code 3)", Exited: true, ContextPercent: -1})
	test.AssertRendersToMarkup(t, "statusbar/exited.xml", w.Canvas())
}

// TestStatusContextMeter: an empty or unknown meter shows an outline with
// nothing filled; a conversation longer than the model's window (a session
// loaded for a model with a smaller one) says so in words, in the error
// colour, with the meter full, never "565%".
func TestStatusContextMeter(t *testing.T) {
	test.NewTempApp(t)
	b := NewStatusBar()
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(900, 40))
	for _, c := range []struct {
		st     model.Status
		text   string
		filled float32 // fraction of the track's width
		level  model.ContextLevel
	}{
		{model.Status{ContextPercent: -1}, "context unknown", 0, model.ContextFine},
		{model.Status{ContextPercent: 0, ContextWindow: 32000}, "0 / 32k (0%)", 0, model.ContextFine},
		{model.Status{ContextPercent: 50, ContextTokens: 16000, ContextWindow: 32000}, "16k / 32k (50%)", 0.5, model.ContextFine},
		{model.Status{ContextPercent: 92, ContextTokens: 29440, ContextWindow: 32000}, "29.4k / 32k (92%)", 0.92, model.ContextNearlyFull},
		{model.Status{ContextPercent: 565.6, ContextTokens: 181000, ContextWindow: 32000}, "181k tokens: more than this model's 32k window", 1, model.ContextOver},
	} {
		b.SetStatus(c.st)
		if b.ctxText.Text != c.text || c.st.ContextSummary() != c.text || b.ctxLevel != c.level {
			t.Fatalf("%+v: says %q, level %v", c.st, b.ctxText.Text, b.ctxLevel)
		}
		if strings.Contains(b.ctxText.Text, "565") {
			t.Fatalf("percent over 100 shown: %q", b.ctxText.Text)
		}
		track := b.ctxTrack.Size().Width
		switch {
		case c.filled == 0 && b.ctxFill.Visible():
			t.Fatalf("%q: the meter shows a fill", c.text)
		case c.filled > 0 && (!b.ctxFill.Visible() || abs32(b.ctxFill.Size().Width/track-c.filled) > 0.02):
			t.Fatalf("%q: filled %v of %v, want %v", c.text, b.ctxFill.Size().Width, track, c.filled)
		}
		// The empty track is an outline: nothing of it reads as a bar.
		if _, _, _, a := b.ctxTrack.FillColor.RGBA(); a != 0 {
			t.Fatalf("%q: the track is filled", c.text)
		}
	}
}

func abs32(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

func TestStatusFormats(t *testing.T) {
	for c, want := range map[float64]string{0: "$0.00", 0.0123: "$0.0123", 1.5: "$1.50"} {
		if got := costText(c); got != want {
			t.Errorf("costText(%v) = %q, want %q", c, got, want)
		}
	}
}

// TestStatusBarNarrow: in a narrow window the bar leaves out the tokens,
// then the cost, then the connection's word, so the context meter's figure
// stays whole ("1.1k / 32k", never "1.1k / 32"); wide again, all are back.
func TestStatusBarNarrow(t *testing.T) {
	test.NewTempApp(t)
	b := NewStatusBar()
	b.SetStatus(model.Status{Connection: "Connected", Connected: true, TokensIn: 1100, TokensOut: 230,
		Cost: 0.0123, ContextPercent: 3.4, ContextTokens: 1100, ContextWindow: 32000})
	w := test.NewTempWindow(t, b)
	for _, c := range []struct {
		width              float32
		conn, cost, tokens bool
	}{
		{700, true, true, true},
		{330, true, true, false},
		{270, true, false, false},
		{200, false, false, false},
		{700, true, true, true},
	} {
		w.Resize(fyne.NewSize(c.width, 40))
		b.Arrange(b.Size())
		got := []bool{b.conn.Visible(), b.cost.Visible(), b.tokens.Visible()}
		if got[0] != c.conn || got[1] != c.cost || got[2] != c.tokens {
			t.Errorf("at %v: connection, cost, tokens shown %v; want %v, %v, %v", c.width, got, c.conn, c.cost, c.tokens)
		}
		right := b.ctxText.Position().X + b.ctxText.Size().Width
		if c.width >= 200 && right > b.Size().Width {
			t.Errorf("at %v: the context figure ends at %v, past the bar's %v", c.width, right, b.Size().Width)
		}
		if b.ctxText.Text != "1.1k / 32k (3%)" {
			t.Errorf("at %v: the context figure reads %q", c.width, b.ctxText.Text)
		}
	}
}
