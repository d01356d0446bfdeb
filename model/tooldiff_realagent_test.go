package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestRealAgentEditShowsDiff: pi 0.73.1 edits a real file for a scripted
// edit call. While the model writes the call, its card shows the diff
// computed from the arguments so far; once pi has run it, the card shows
// pi's own details.diff, numbered by the file's lines with pi's context,
// and the file has changed.
func TestRealAgentEditShowsDiff(t *testing.T) {
	c, s, _, env := startPi(t, nil)
	waitPiReady(t, s)
	var old strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&old, "line %d of the zebra file\n", i)
	}
	before := strings.Replace(old.String(), "line 12 of the zebra file\n", "stripes: black\n", 1)
	after := strings.Replace(before, "stripes: black\n", "stripes: white\nmane: black\n", 1)
	path := filepath.Join(env.WorkDir, "zebra.txt")
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}

	args := `{"path":"zebra.txt","edits":[{"oldText":"stripes: black\n","newText":"stripes: white\nmane: black\n"}]}`
	c.Send("paint the zebra [[slow:120]] [[tool:edit:"+args+"]]", nil, false, nil)
	var streamed []string // computed diffs seen while the call was written
	var card ToolCard
	testsupport.Eventually(t, "pi ran the edit", func() bool {
		for _, cd := range s.View(nil).Cards {
			if cd.Name != "edit" {
				continue
			}
			if cd.Status == ToolPending && cd.Diff != "" && cd.DiffNote == NoteComputedDiff {
				if len(streamed) == 0 || streamed[len(streamed)-1] != cd.Diff {
					streamed = append(streamed, cd.Diff)
				}
			}
			card = cd
			return cd.Status == ToolDone || cd.Status == ToolFailed
		}
		return false
	})
	if card.Status != ToolDone {
		t.Fatalf("the edit failed: %+v", card)
	}
	// The call streams in a dozen deltas: the diff grows with them, its
	// rows numbered within the edit's text.
	removed := false
	for _, d := range streamed {
		removed = removed || strings.HasPrefix(d, "-1 stripes: black")
	}
	if len(streamed) < 2 || !removed {
		t.Errorf("diffs while the call streamed: %q", streamed)
	}

	t.Logf("streamed %q\ncard:\n%s", streamed, card.Diff)
	// pi's diff: lines 8 to 16 of the file, the change at 12.
	want := lineDiff(before, after) // pi's format: TestLineDiffAgainstAgentScript
	if card.Diff != want || card.DiffNote != "" || card.DiffContent {
		t.Fatalf("card diff %q (note %q), want pi's\n%s", card.Diff, card.DiffNote, want)
	}
	for _, row := range []string{"-12 stripes: black", "+12 stripes: white", "+13 mane: black", " 11 line 11 of the zebra file", "    ..."} {
		if !strings.Contains(card.Diff, row) {
			t.Errorf("pi's diff has no row %q:\n%s", row, card.Diff)
		}
	}
	if card.Command != "zebra.txt" || card.Output != "Successfully replaced 1 block(s) in zebra.txt." {
		t.Errorf("command %q, output %q", card.Command, card.Output)
	}
	if got, _ := os.ReadFile(path); string(got) != after {
		t.Errorf("the file holds %q", got)
	}
}
