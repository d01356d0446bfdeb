package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestStatusBar(t *testing.T) {
	test.NewTempApp(t)
	b := NewStatusBar()
	b.SetStatus(Status{Connection: "Starting…", ContextPercent: -1})
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(760, 40))
	test.AssertRendersToMarkup(t, "statusbar/starting.xml", w.Canvas())

	running := Status{Connection: "Connected", Connected: true, Running: true, TokensIn: 12345, TokensOut: 987,
		Cost: 0.0123, ContextPercent: 6.15, ContextTokens: 12300, ContextWindow: 200000,
		Activity: "Compacting…", Extension: map[string]string{"z": "lint ok", "a": "branch main"}}
	b.SetStatus(running)
	test.AssertRendersToMarkup(t, "statusbar/running.xml", w.Canvas())
	if b.ctxText.Text != "12.3k / 200k (6%)" || b.ctx.Value < 0.06 || b.ctx.Value > 0.07 {
		t.Fatalf("context %q value %v", b.ctxText.Text, b.ctx.Value)
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

	b.SetStatus(Status{Connection: "Exited (code 3)", Exited: true, ContextPercent: -1})
	test.AssertRendersToMarkup(t, "statusbar/exited.xml", w.Canvas())
}

func TestStatusFormats(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 1000: "1k", 12345: "12.3k", 200000: "200k", 1500000: "1.5M"} {
		if got := compactCount(n); got != want {
			t.Errorf("compactCount(%d) = %q, want %q", n, got, want)
		}
	}
	for c, want := range map[float64]string{0: "$0.00", 0.0123: "$0.0123", 1.5: "$1.50"} {
		if got := costText(c); got != want {
			t.Errorf("costText(%v) = %q, want %q", c, got, want)
		}
	}
}
