package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"knightcode.ai/desktop/widgets"
)

// piFixture is a session pi 0.73.1 wrote, copied to dir with its header's
// working folder set to cwd and, when lastInput > 0, the last reply's
// input tokens set to lastInput.
func piFixture(t *testing.T, dir, cwd string, lastInput int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("sessionfiles", "testdata", "sessions", "pi-0.73.1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"cwd":"/tmp/TestListSessionsRealPi3184103466/001/work"`, `"cwd":`+strconv.Quote(cwd), 1)
	if lastInput > 0 {
		i := strings.LastIndex(text, `"usage":{"input":1461,`)
		if i < 0 {
			t.Fatal("the fixture changed: no last usage")
		}
		text = text[:i] + `"usage":{"input":` + strconv.Itoa(lastInput) + `,` + text[i+len(`"usage":{"input":1461,`):]
		// pi counts the context by the reply's total.
		text = strings.Replace(text, `"totalTokens":1470,`, `"totalTokens":`+strconv.Itoa(lastInput+9)+`,`, 1)
	}
	path := filepath.Join(dir, "2026-11-30T15-02-14-636Z_01a22cfa-5b6a-7340-bccd-f705be850327.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWindowContextMeterOverTheWindow: a session whose last reply used
// more tokens than the current model's window holds (opened with a model
// of 32k) says so in words, not as 565 %.
func TestWindowContextMeterOverTheWindow(t *testing.T) {
	work := t.TempDir()
	file := piFixture(t, t.TempDir(), work, 180000)
	w, _ := openTestWindow(t, "--session", file, "--model", "fake/fast")
	eventually(t, "stats", func() bool { return drawn(w).Status.ContextTokens > 0 })
	st := drawn(w).Status
	got := widgets.ContextSummary(st)
	if st.ContextPercent <= 100 || got != "180k tokens: more than this model's 32k window" {
		t.Fatalf("status %+v says %q", st, got)
	}
}
