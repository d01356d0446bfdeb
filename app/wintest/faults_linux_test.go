package wintest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The fault matrix: every way a tab's agent, a tab or the whole app can
// end, against the real app and the fake agent. Before the fault the tab
// has a run streaming, two tools of the agent's running (sleep 300, one in
// a session of its own as pi runs them, one in the agent's group), a
// steering message queued and a draft typed. After it:
//   - no process of the agent is left: none carries its tag (inherited by
//     all it started) and none is in its process group;
//   - the draft and the queued message come back: after a restart of the
//     app in the same folder and session, or when the closed tab is
//     reopened, the editor holds both, and sending sends exactly that;
//   - the session file is whole: every line parses, and the agent of the
//     next start loads it (--session).
//
// The SSH case (the connection to the host dropped) is remote's
// TestSessionKilled and TestSSHKilledLocally: the agent on the host ends
// and the session resumes; in the window it is one more way of the agent
// ending, as "agent killed" here.

const (
	faultWork  = "work [[child:session:300]] [[child:group:300]] [[slow:100]] [[long:3000]]"
	faultSteer = "steer words"
	faultDraft = "draft words"
	// faultBack is what the editor holds afterwards: the queued message
	// first (it was written first), then the draft.
	faultBack = faultSteer + "\n\n" + faultDraft
)

// faultWay is one way to end.
type faultWay struct {
	name string
	env  []string
	// usr1Code is the code the fake exits with on SIGUSR1.
	usr1Code int
	// inSecondTab: the work is done in a second tab (the first stays).
	inSecondTab bool
	fault       func(r *faultRun)
	// ends says what ends: "app" (with appCode; -1 for a signal's death),
	// "agent" (the app lives on) or "tab".
	ends    string
	appCode int
}

// faultRun is one row of the matrix being run.
type faultRun struct {
	t       *testing.T
	app     string
	dir     string
	s       *session
	way     faultWay
	agent   int    // the working tab's agent
	tag     string // its tag
	appTag  string // the app's tag prefix, "<pid>."
	session string // its session file
}

func TestFaultMatrix(t *testing.T) {
	requireWindow(t)
	app := appBinary(t)
	signal := func(sig syscall.Signal) func(r *faultRun) {
		return func(r *faultRun) { r.must(r.s.p.Signal(sig), "signalling the app") }
	}
	ways := []faultWay{
		{name: "agent exits by itself", usr1Code: 0, ends: "agent",
			fault: func(r *faultRun) { r.must(syscall.Kill(r.agent, syscall.SIGUSR1), "asking the agent to exit") }},
		{name: "agent crashes mid-stream", usr1Code: 3, ends: "agent",
			fault: func(r *faultRun) { r.must(syscall.Kill(r.agent, syscall.SIGUSR1), "asking the agent to crash") }},
		{name: "agent killed", ends: "agent",
			fault: func(r *faultRun) { r.must(syscall.Kill(r.agent, syscall.SIGKILL), "killing the agent") }},
		{name: "app SIGTERM", ends: "app", fault: signal(syscall.SIGTERM)},
		{name: "app SIGINT", ends: "app", fault: signal(syscall.SIGINT)},
		{name: "app SIGHUP", ends: "app", fault: signal(syscall.SIGHUP)},
		{name: "app SIGQUIT", ends: "app", fault: signal(syscall.SIGQUIT)},
		{name: "app panic", ends: "app", appCode: 2, env: []string{"KNIGHTCODE_DEBUG_PANIC=1"},
			fault: func(r *faultRun) {
				r.must(r.s.p.Key("ctrl+k"), "opening the palette")
				r.s.waitWord("palette", "command", 20*time.Second) // "Type a command"
				r.must(r.s.p.Type("Panic now"), "typing in the palette")
				r.s.waitWord("panic-command", "(debug)", 20*time.Second)
				r.must(r.s.p.Key("Return"), "running the command")
			}},
		{name: "app SIGKILL", ends: "app", appCode: -1, fault: signal(syscall.SIGKILL)},
		{name: "tab closed", ends: "tab", inSecondTab: true,
			fault: func(r *faultRun) {
				r.must(r.s.p.Key("ctrl+w"), "closing the tab")
				// Its agent works: the window asks, Close tab is the default.
				r.s.waitWord("close-tab", "working", 20*time.Second)
				r.must(r.s.p.Key("Return"), "confirming")
			}},
		{name: "window closed", ends: "app",
			fault: func(r *faultRun) {
				x, err := DialX(r.s.p.Display)
				r.must(err, "connecting to the display")
				defer x.Close()
				id, err := strconv.ParseUint(r.s.window, 10, 32)
				r.must(err, "reading the window id")
				r.must(x.CloseWindow(uint32(id)), "closing the window")
			}},
	}
	for _, way := range ways {
		t.Run(way.name, func(t *testing.T) {
			r := &faultRun{t: t, app: app, dir: artifacts(t), way: way}
			r.run()
		})
	}
}

func (r *faultRun) must(err error, what string) {
	r.t.Helper()
	if err != nil {
		r.t.Fatalf("%s: %v", what, err)
	}
}

func (r *faultRun) agentArgs(extra ...string) []string {
	args := []string{"--session-dir", filepath.Join(r.dir, "sessions"), "--fake-exit-on-usr1", strconv.Itoa(r.way.usr1Code)}
	return append(args, extra...)
}

func (r *faultRun) run() {
	t := r.t
	r.s = startAppIn(t, r.app, r.dir, "trace-1.txt", r.way.env, r.agentArgs()...)
	r.appTag = strconv.Itoa(r.s.p.Pid) + "."
	if r.way.inSecondTab {
		r.openSecondTab()
	} else {
		r.agent = r.s.agent()
	}
	r.setUp()
	r.way.fault(r)
	switch r.way.ends {
	case "app":
		r.appEnded()
		r.restart()
	case "agent":
		r.agentEnded()
		// Given back into the editor, in the app still running.
		r.waitEditor(r.s, time.Time{}, "the queued message given back above the draft")
		r.quit(r.s)
		r.restart()
	case "tab":
		r.tabClosed()
	}
}

// openSecondTab opens a tab with Ctrl+T and waits until its agent is up.
func (r *faultRun) openSecondTab() {
	first := r.s.agent()
	r.must(r.s.p.Key("ctrl+t"), "opening a tab")
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool { return countMarks(r.s.p.Marks(), "history") >= 2 }) {
		r.t.Fatalf("the second tab never loaded its transcript; agents %v", Children(r.s.p.Pid))
	}
	r.s.waitDrawn(10 * time.Second)
	kids := Children(r.s.p.Pid)
	if len(kids) != 2 {
		r.t.Fatalf("agents after Ctrl+T %v, want two", kids)
	}
	r.agent = kids[0]
	if r.agent == first {
		r.agent = kids[1]
	}
}

// countMarks counts the marks of event.
func countMarks(ms Marks, event string) int {
	n := 0
	for _, m := range ms {
		if m.Event == event {
			n++
		}
	}
	return n
}

// setUp starts the run with its tools, queues the steer, types the draft
// and waits until the drafts file holds both.
func (r *faultRun) setUp() {
	t := r.t
	r.s.send(faultWork)
	r.tag = AgentTag(r.agent)
	if r.tag == "" || !strings.HasPrefix(r.tag, r.appTag) {
		t.Fatalf("the agent %d carries the tag %q, want one starting %q", r.agent, r.tag, r.appTag)
	}
	// The agent and its two tools.
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool { return len(Tagged(r.tag)) >= 3 }) {
		t.Fatalf("the agent's tools did not start: tagged %s", Describe(Tagged(r.tag)))
	}
	r.s.send(faultSteer)
	r.s.typeText(faultDraft)
	var last string
	if !WaitFor(time.Minute, 50*time.Millisecond, func() bool {
		d, ok := r.keptDraft()
		last = fmt.Sprintf("%+v", d)
		return ok && d.Text == faultDraft && slices.Equal(d.Queued, []string{faultSteer})
	}) {
		t.Fatalf("the drafts file never held the draft and the queued message; last read %s", last)
	}
	// The session file of the working tab: the one holding the prompt.
	files, _ := filepath.Glob(filepath.Join(r.dir, "sessions", "*.jsonl"))
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && strings.Contains(string(data), "[[child:session:300]]") {
			r.session = f
		}
	}
	if r.session == "" {
		t.Fatalf("no session file holds the prompt: %v", files)
	}
}

// keptDraft reads the drafts file under the app's HOME: the draft of the
// working folder that is not closed, or the closed one for a closed tab.
func (r *faultRun) keptDraft() (keptDraft, bool) {
	paths, _ := filepath.Glob(filepath.Join(r.s.p.Home, ".config", "fyne", "*", "drafts", "drafts.json"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var f struct{ Drafts []keptDraft }
		if json.Unmarshal(data, &f) != nil {
			continue
		}
		for _, d := range f.Drafts {
			if d.Text != "" || len(d.Queued) > 0 {
				return d, true
			}
		}
	}
	return keptDraft{}, false
}

type keptDraft struct {
	Text   string
	Queued []string
	Closed bool
}

// appEnded waits for the app's exit with the way's code; but for SIGKILL
// nothing of its agent is left once it has gone (SIGKILL: once the next
// start has ended the leftovers, see restart).
func (r *faultRun) appEnded() {
	code, err := r.s.p.Wait(2 * time.Minute)
	stderr := r.s.p.StderrText()
	if r.way.appCode == -1 {
		if err == nil || !strings.Contains(err.Error(), "killed") {
			r.t.Fatalf("the app ended with %d, %v; want killed", code, err)
		}
		return
	}
	if err != nil || code != r.way.appCode {
		r.t.Fatalf("the app ended with %d, %v; want %d; stderr:\n%s", code, err, r.way.appCode, stderr)
	}
	r.nothingLeft(r.appTag, "after the app ended")
}

// agentEnded waits until the agent is gone and nothing it started is left.
func (r *faultRun) agentEnded() {
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool { return !Running(r.agent) }) {
		r.t.Fatalf("the agent %d still runs", r.agent)
	}
	r.nothingLeft(r.tag, "after the agent ended")
}

// nothingLeft waits (bounded) until no process carries a tag starting with
// prefix and none is in the agent's group.
func (r *faultRun) nothingLeft(prefix, when string) {
	r.t.Helper()
	var left []int
	if !WaitFor(30*time.Second, 50*time.Millisecond, func() bool {
		left = append(Tagged(prefix), InGroup(r.agent)...)
		return len(left) == 0
	}) {
		r.t.Fatalf("%s: still running: %s", when, Describe(left))
	}
}

// tabClosed: the tab's agent and tools end while the app runs; Ctrl+Shift+T
// reopens the tab with its session and its draft.
func (r *faultRun) tabClosed() {
	r.agentEnded()
	var d keptDraft
	if !WaitFor(30*time.Second, 50*time.Millisecond, func() bool {
		var ok bool
		d, ok = r.keptDraft()
		return ok && d.Closed
	}) {
		r.t.Fatalf("the closed tab's draft is kept as %+v, want closed", d)
	}
	from := time.Now()
	before := countMarks(r.s.p.Marks(), "history")
	r.must(r.s.p.Key("ctrl+shift+t"), "reopening the tab")
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool { return countMarks(r.s.p.Marks(), "history") > before }) {
		r.t.Fatalf("the reopened tab never loaded its session")
	}
	r.waitEditor(r.s, from, "the reopened tab's draft")
	r.sendBack(r.s)
	r.sessionWhole()
	r.quit(r.s)
}

// restart starts the app again in the same folder and session: the agent
// loads the session file, the draft and the queued message come back, and
// (after a SIGKILL) what the killed app left is ended.
func (r *faultRun) restart() {
	r.sessionWhole()
	s := startAppIn(r.t, r.app, r.dir, "trace-2.txt", nil, r.agentArgs("--session", r.session)...)
	if r.way.appCode == -1 {
		r.nothingLeft(r.appTag, "after the next start (the killed app's leftovers)")
	}
	r.waitEditor(s, time.Time{}, "the draft after the restart")
	r.sendBack(s)
	r.quit(s)
	r.s = s
}

// waitEditor waits until the editor of s holds faultBack (its length, from
// the trace) after from, and shows the screen for the record.
func (r *faultRun) waitEditor(s *session, from time.Time, what string) {
	r.t.Helper()
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool {
		_, ok := s.p.Marks().First("editor", from, func(m Mark) bool { return m.N() == len(faultBack) })
		return ok
	}) {
		last, _ := s.p.Marks().Last("editor")
		path, words := s.screen("editor")
		r.t.Fatalf("%s: the editor never held %d bytes (last %s); %s reads:\n%s", what, len(faultBack), last.Arg, path, Text(words))
	}
	s.waitDrawn(10 * time.Second)
	s.screen("restored")
}

// sendBack presses Return: the agent gets exactly the texts kept.
func (r *faultRun) sendBack(s *session) {
	r.t.Helper()
	before := len(s.records("prompt"))
	r.must(s.p.Focus(s.window), "focusing the window")
	r.must(s.p.Key("Return"), "sending")
	var got []Record
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool {
		got = s.records("prompt")
		return len(got) > before
	}) {
		r.t.Fatalf("Return sent nothing")
	}
	if got[before].Message != faultBack {
		r.t.Fatalf("sent %q, want %q", got[before].Message, faultBack)
	}
}

// sessionWhole checks every line of the session file parses.
func (r *faultRun) sessionWhole() {
	data, err := os.ReadFile(r.session)
	r.must(err, "reading the session file")
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if !json.Valid([]byte(line)) {
			r.t.Fatalf("line %d of %s does not parse: %q", i+1, r.session, line)
		}
	}
}

// quit ends s with SIGTERM: exit 0, nothing of its agents left.
func (r *faultRun) quit(s *session) {
	r.t.Helper()
	r.must(s.p.Signal(syscall.SIGTERM), "signalling the app")
	code, err := s.p.Wait(2 * time.Minute)
	if err != nil || code != 0 {
		r.t.Fatalf("after SIGTERM the app ended with %d, %v; stderr:\n%s", code, err, s.p.StderrText())
	}
	r.nothingLeft(strconv.Itoa(s.p.Pid)+".", "after quitting")
}
