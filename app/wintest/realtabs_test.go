package wintest_test

import (
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/app/wintest"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
)

// TestRealAgentWindowTabs: the app opened on two folders, a real pi in
// each; both stream at once, each reply lands in its own tab; Ctrl+Tab,
// Ctrl+T and Ctrl+W are typed as a person does; quitting leaves no agent.
func TestRealAgentWindowTabs(t *testing.T) {
	r := raSetup(t, "second")
	r.step1Window()
	r.stepTabsStreamAtOnce()
	r.stepTabsOpenAndClose()
	r.step8Quit()
}

// tabBar is the row of tab labels under the menu bar.
func (r *raRun) tabBar() wintest.Geometry { return r.region(0, 28, r.geo.W*85/100, 45) }

// step1Window finds the window and its two tabs, one per folder.
func (r *raRun) step1Window() {
	r.findWindow()
	r.waitScreen("two-tabs", "a tab for each folder (work, second)", r.tabBar, raAll("work", "second"))
	r.waitScreenFor(raStartWait, "", "the first tab's agent ready", r.bottom, raAll("Connected"))
}

// stepTabsStreamAtOnce: a slow reply in the first tab, and while it
// streams, Ctrl+Tab and a prompt in the second; the model server sees both
// at once, and each tab shows its own conversation.
func (r *raRun) stepTabsStreamAtOnce() {
	t := r.t
	n := len(r.srv.Requests())
	r.typeLine("alpha tale [[long:60]] [[slow:1000]]")
	first := r.waitRequest(n, "the first tab's prompt", func(q llmserver.Request) bool {
		return strings.Contains(q.LastMessage().Text, "alpha tale")
	})
	r.must(r.app.Key("ctrl+Tab"), "Ctrl+Tab")
	r.waitScreen("second-tab", "the second tab in front (its empty first screen)", r.chat, raAll("second"))
	r.typeLine("beta tale [[long:30]] [[slow:100]]")
	second := r.waitRequest(first.Seq, "the second tab's prompt", func(q llmserver.Request) bool {
		return strings.Contains(q.LastMessage().Text, "beta tale")
	})
	// 60 deltas, each after a 1 s pause: the first reply streams for at
	// least 60 s after its request came (a busy machine only makes it
	// longer), time enough to switch tabs and type, OCR waits included. A
	// second prompt within that time came while the first streamed.
	if gap := second.Time.Sub(first.Time); gap > 59*time.Second {
		t.Fatalf("the second prompt reached the model %v after the first: not while the first streamed", gap)
	}
	r.waitScreen("beta-reply", "the second tab's own prompt and reply", r.chat,
		raBoth(raAll("beta", "tale"), raNone("alpha")))
	r.waitIdle("the second tab's turn")
	r.must(r.app.Key("ctrl+Tab"), "Ctrl+Tab back")
	r.waitScreen("alpha-reply", "the first tab's own prompt and reply", r.chat,
		raBoth(raAll("alpha", "tale"), raNone("beta")))
	r.waitIdle("the first tab's turn")
}

// stepTabsOpenAndClose: Ctrl+T opens a third tab with its own pi; Ctrl+W
// closes it and that pi ends.
func (r *raRun) stepTabsOpenAndClose() {
	t := r.t
	before := len(raAgentProcesses(r.env.AgentDir))
	r.must(r.app.Key("ctrl+t"), "Ctrl+T")
	// (The current tab's label is in the accent colour, which OCR reads
	// badly: the new tab's header says it.)
	r.waitScreen("third-tab", "a third tab (Untitled session)", r.whole, raAll("Untitled"))
	var now int
	if !wintest.WaitFor(raWait, 200*time.Millisecond, func() bool {
		now = len(raAgentProcesses(r.env.AgentDir))
		return now > before
	}) {
		t.Fatalf("%d agent processes after Ctrl+T, %d before: the new tab started none", now, before)
	}
	r.waitScreenFor(raStartWait, "", "the third tab's agent ready", r.bottom, raAll("Connected"))
	r.must(r.app.Key("ctrl+w"), "Ctrl+W")
	r.waitScreen("third-closed", "the third tab gone", r.whole, raBoth(raAll("work", "second"), raNone("Untitled")))
	if !wintest.WaitFor(raWait, 200*time.Millisecond, func() bool {
		now = len(raAgentProcesses(r.env.AgentDir))
		return now <= before
	}) {
		t.Fatalf("%d agent processes after Ctrl+W, %d before the tab opened", now, before)
	}
}
