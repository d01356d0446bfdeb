package widgets

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/model"
)

var sidebarNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func sampleCards() []model.ToolCard {
	var code strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&code, "%d\tfunc line%d() { return %d }\n", i, i, i*i)
	}
	return []model.ToolCard{
		{ID: "t1", Revision: 3, Name: "read", ArgsSummary: "src/widgets/toolsidebar.go", Command: "src/widgets/toolsidebar.go", Status: model.ToolDone,
			Started: sidebarNow.Add(-95 * time.Second), Ended: sidebarNow.Add(-94200 * time.Millisecond),
			Output: code.String(), Turn: 1},
		{ID: "t2", Revision: 5, Name: "bash", ArgsSummary: "go test ./... -run TestSidebar -count=1 -v", Command: "go test ./... -run TestSidebar -count=1 -v",
			Status:  model.ToolFailed,
			Started: sidebarNow.Add(-80 * time.Second), Ended: sidebarNow.Add(-77 * time.Second),
			Output: "--- FAIL: TestSidebar (0.01s)\n    sidebar_test.go:42: got 3 cards, want 4\nFAIL\nexit status 1\n", Turn: 1},
		{ID: "t3", Revision: 9, Name: "bash", ArgsSummary: "npm install", Command: "npm install", Status: model.ToolRunning,
			Started: sidebarNow.Add(-14 * time.Second),
			Output:  "added 12 packages\n\x1b[32mfetching\x1b[0m lodash@4.17.21\nprogress 10%\rprogress 55%", Turn: 2, OutputDropped: 20480},
		{ID: "t4", Revision: 1, Name: "edit", ArgsSummary: "src/main.go", Command: "src/main.go", Status: model.ToolPending, Turn: 2},
	}
}

func newTestSidebar(cards []model.ToolCard) *ToolSidebar {
	s := NewToolSidebar()
	s.now = func() time.Time { return sidebarNow }
	s.startTicker = func(func()) func() { return func() {} }
	s.OnShowAll = func(string) {}
	s.OnShowOutput = func(model.ToolCard) {}
	s.SetCards(cards)
	return s
}

// diffCards are an edit with the agent's diff, an edit still being
// written (its diff computed from the arguments), a write showing the new
// file's content and a bash call with a long command.
func diffCards() []model.ToolCard {
	return []model.ToolCard{
		{ID: "d1", Revision: 1, Name: "edit", ArgsSummary: "src/zebra.go", Command: "src/zebra.go", Status: model.ToolDone,
			Started: sidebarNow.Add(-40 * time.Second), Ended: sidebarNow.Add(-39800 * time.Millisecond), Turn: 1,
			Output: "Successfully replaced 2 block(s) in src/zebra.go.",
			Diff: "    ...\n  8 func stripes() int {\n- 9 \treturn 3\n+ 9 \treturn 4\n 10 }\n 11 \n    ...\n 97 // mane\n" +
				"-98 const colour = \"black\"\n+98 const colour = \"white\"\n+99 const legs = 4"},
		{ID: "d2", Revision: 1, Name: "write", ArgsSummary: "notes/plan.md", Command: "notes/plan.md", Status: model.ToolDone,
			Started: sidebarNow.Add(-30 * time.Second), Ended: sidebarNow.Add(-29900 * time.Millisecond), Turn: 1,
			Output: "Successfully wrote 61 bytes to notes/plan.md", DiffContent: true, DiffNote: "the file's new content",
			Diff: " 1 # Plan\n 2 \n 3 - feed the zebra\n 4 - paint the stripes"},
		{ID: "d3", Revision: 1, Name: "bash", ArgsSummary: "go test ./widgets/... -run 'TestToolSidebar|TestMonoLines' -count=1 -v 2>&1 | tee /tmp/widgets-test.log",
			Command: "go test ./widgets/... -run 'TestToolSidebar|TestMonoLines' -count=1 -v 2>&1 | tee /tmp/widgets-test.log",
			Status:  model.ToolDone, Started: sidebarNow.Add(-20 * time.Second), Ended: sidebarNow.Add(-18 * time.Second), Turn: 2,
			Output: "ok  \tknightcode.ai/desktop/widgets\t0.266s\n"},
		{ID: "d4", Revision: 1, Name: "edit", ArgsSummary: "src/zebra.go", Command: "src/zebra.go", Status: model.ToolPending, Turn: 2,
			DiffNote: "from the arguments, lines counted per edit",
			Diff:     " 1 func stripes() int {\n-2 \treturn 4\n+2 \treturn fiv"},
	}
}

func TestToolSidebarShots(t *testing.T) {
	saveShots(t, "sidebar-diff", fyne.NewSize(420, 720), func() fyne.CanvasObject {
		s := newTestSidebar(diffCards())
		s.toggle(s.states["d1"])
		s.toggle(s.states["d2"])
		s.toggle(s.states["d3"])
		return s
	})
	saveShots(t, "sidebar", fyne.NewSize(420, 640), func() fyne.CanvasObject {
		return newTestSidebar(sampleCards())
	})
	saveShots(t, "sidebar-narrow", fyne.NewSize(300, 420), func() fyne.CanvasObject {
		cards := sampleCards()
		cards[2].Output += "\n" + strings.Repeat("a very long line that needs horizontal scrolling ", 6) + "\nend"
		return newTestSidebar(cards)
	})
	saveShots(t, "sidebar-open", fyne.NewSize(420, 640), func() fyne.CanvasObject {
		s := newTestSidebar(sampleCards())
		s.toggle(s.states["t1"])
		s.Select("t2")
		return s
	})
}
