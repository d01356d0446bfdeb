package rpcconn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEveryCommandRoundTrips drives all 33 commands through a real child
// process speaking the 0.9.2 protocol.
func TestEveryCommandRoundTrips(t *testing.T) {
	c := startFake(t)
	ctx := testContext(t)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	models, err := c.GetAvailableModels(ctx)
	must("get_available_models", err)
	if len(models) < 2 {
		t.Fatalf("models %+v", models)
	}
	var thinker Model
	for _, m := range models {
		if m.Reasoning {
			thinker = m
		}
	}
	m, err := c.SetModel(ctx, thinker.Provider, thinker.ID)
	must("set_model", err)
	if m.ID != thinker.ID || !m.AcceptsImages() {
		t.Fatalf("set_model returned %+v", m)
	}
	_, err = c.SetModel(ctx, "nope", "nope")
	var cmdErr *CommandError
	if !errors.As(err, &cmdErr) || cmdErr.Command != "set_model" {
		t.Fatalf("set_model to an unknown model: %v", err)
	}

	levels, err := c.GetAvailableThinkingLevels(ctx)
	must("get_available_thinking_levels", err)
	if strings.Join(levels, " ") != "off minimal low medium high xhigh max" {
		t.Fatalf("levels %v", levels)
	}
	must("set_thinking_level", c.SetThinkingLevel(ctx, "high"))
	level, ok, err := c.CycleThinkingLevel(ctx)
	must("cycle_thinking_level", err)
	if !ok || level != "xhigh" {
		t.Fatalf("cycle_thinking_level: %q %v", level, ok)
	}
	cycled, err := c.CycleModel(ctx)
	must("cycle_model", err)
	if cycled == nil || cycled.Model.ID == thinker.ID {
		t.Fatalf("cycle_model %+v", cycled)
	}
	must("set_steering_mode", c.SetSteeringMode(ctx, ModeAll))
	must("set_follow_up_mode", c.SetFollowUpMode(ctx, ModeOneAtATime))
	must("set_auto_compaction", c.SetAutoCompaction(ctx, false))
	must("set_auto_retry", c.SetAutoRetry(ctx, false))
	must("set_session_name", c.SetSessionName(ctx, "feature work"))
	st, err := c.GetState(ctx)
	must("get_state", err)
	if st.SteeringMode != ModeAll || st.FollowUpMode != ModeOneAtATime || st.AutoCompactionEnabled || st.SessionName != "feature work" {
		t.Fatalf("state %+v", st)
	}

	must("prompt", c.Prompt(ctx, Prompt{Message: "first [[markdown]]", Images: []Image{{Data: "iVBORw0KGgo=", MimeType: "image/png"}}}))
	collectUntil(t, c, isType(TypeAgentSettled))
	must("prompt", c.Prompt(ctx, Prompt{Message: "second"}))
	collectUntil(t, c, isType(TypeAgentSettled))

	msgs, err := c.GetMessages(ctx)
	must("get_messages", err)
	if len(msgs) != 4 || msgs[0].Role != RoleUser || msgs[0].Content.Text() != "first [[markdown]]" || msgs[1].Role != RoleAssistant {
		t.Fatalf("messages %+v", msgs)
	}
	if len(msgs[0].Content) != 2 || msgs[0].Content[1].Type != ContentImage {
		t.Fatalf("image not kept in the user message: %+v", msgs[0].Content)
	}
	text, ok, err := c.GetLastAssistantText(ctx)
	must("get_last_assistant_text", err)
	if !ok || text == "" {
		t.Fatal("no last assistant text")
	}
	stats, err := c.GetSessionStats(ctx)
	must("get_session_stats", err)
	if stats.UserMessages != 2 || stats.AssistantMessages != 2 || stats.Tokens.Total == 0 || stats.Cost == 0 || stats.ContextUsage == nil {
		t.Fatalf("stats %+v", stats)
	}

	fork, err := c.GetForkMessages(ctx)
	must("get_fork_messages", err)
	if len(fork) != 2 || fork[0].Text != "first [[markdown]]" {
		t.Fatalf("fork messages %+v", fork)
	}
	entries, err := c.GetEntries(ctx, "")
	must("get_entries", err)
	if len(entries.Entries) == 0 || entries.LeafID == nil {
		t.Fatalf("entries %+v", entries)
	}
	firstID := entries.Entries[0].ID
	after, err := c.GetEntries(ctx, firstID)
	must("get_entries since", err)
	if len(after.Entries) != len(entries.Entries)-1 {
		t.Fatalf("since %s: %d entries, want %d", firstID, len(after.Entries), len(entries.Entries)-1)
	}
	if _, err := c.GetEntries(ctx, "no-such-entry"); !errors.As(err, &cmdErr) {
		t.Fatalf("unknown cursor: %v", err)
	}
	tree, err := c.GetTree(ctx)
	must("get_tree", err)
	if len(tree.Tree) != 1 || tree.Tree[0].Entry.ID != firstID || tree.LeafID == nil || *tree.LeafID != *entries.LeafID {
		t.Fatalf("tree %+v", tree)
	}

	forked, err := c.Fork(ctx, fork[1].EntryID)
	must("fork", err)
	if forked.Cancelled || forked.Text != "second" {
		t.Fatalf("fork %+v", forked)
	}
	cancelled, err := c.Clone(ctx)
	must("clone", err)
	if cancelled {
		t.Fatal("clone cancelled")
	}

	out := filepath.Join(t.TempDir(), "session.html")
	path, err := c.ExportHTML(ctx, out)
	if err != nil {
		// An in-memory session cannot be exported; that is a clear error.
		if !errors.As(err, &cmdErr) {
			t.Fatalf("export_html: %v", err)
		}
	} else if b, _ := os.ReadFile(path); !strings.Contains(string(b), "first") {
		t.Fatalf("export_html wrote %q", b)
	}

	cmds, err := c.GetCommands(ctx)
	must("get_commands", err)
	if len(cmds) == 0 || cmds[0].Name == "" || cmds[0].Source == "" {
		t.Fatalf("commands %+v", cmds)
	}

	must("compact", func() error {
		r, err := c.Compact(ctx, "focus on code")
		if err == nil && r.Summary == "" {
			return errors.New("empty summary")
		}
		return err
	}())
	must("abort_retry", c.AbortRetry(ctx))
	must("abort_bash", c.AbortBash(ctx))
	must("abort", c.Abort(ctx))
	q, err := c.ClearQueue(ctx)
	must("clear_queue", err)
	if len(q.Steering)+len(q.FollowUp) != 0 {
		t.Fatalf("queue %+v", q)
	}

	var chunks []string
	res, err := c.Bash(ctx, "seq 3", func(d string) { chunks = append(chunks, d) })
	must("bash", err)
	if strings.Join(chunks, "") != "1\n2\n3\n" || res.ExitCode == nil || *res.ExitCode != 0 || !strings.Contains(res.Output, "3") {
		t.Fatalf("bash %+v, chunks %q", res, chunks)
	}

	cancelled, err = c.NewSession(ctx, "")
	must("new_session", err)
	if cancelled {
		t.Fatal("new_session cancelled")
	}
	session := t.TempDir() + "/missing.jsonl"
	if _, err := c.SwitchSession(ctx, session); err == nil {
		// The fake may create it; either way it answered.
		t.Log("switch_session accepted a new path")
	}
}

func TestSwitchCancelledByExtension(t *testing.T) {
	c := startFake(t, "--fake-cancel-switch")
	session := filepath.Join(t.TempDir(), "other.jsonl")
	os.WriteFile(session, []byte(`{"type":"session","version":3,"id":"x","timestamp":"2026-11-30T00:00:00Z","cwd":"/"}`+"\n"), 0o644)
	cancelled, err := c.SwitchSession(testContext(t), session)
	if err != nil || !cancelled {
		t.Fatalf("cancelled=%v err=%v", cancelled, err)
	}
}

func TestPromptWhileStreamingNeedsBehaviour(t *testing.T) {
	c := startFake(t)
	ctx := testContext(t)
	if err := c.Prompt(ctx, Prompt{Message: "[[slow:50]] [[long:40]]"}); err != nil {
		t.Fatal(err)
	}
	collectUntil(t, c, isType(TypeMessageUpdate))
	var cmdErr *CommandError
	if err := c.Prompt(ctx, Prompt{Message: "again"}); !errors.As(err, &cmdErr) {
		t.Fatalf("prompt while streaming without behaviour: %v", err)
	}
	if err := c.Prompt(ctx, Prompt{Message: "steered", StreamingBehavior: StreamSteer}); err != nil {
		t.Fatal(err)
	}
	if err := c.FollowUp(ctx, "later", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Steer(ctx, "also", nil); err != nil {
		t.Fatal(err)
	}
	evs := collectUntil(t, c, func(ev Event) bool {
		q, ok := ev.(*QueueUpdate)
		return ok && len(q.Steering) == 2 && len(q.FollowUp) == 1
	})
	if len(evs) == 0 {
		t.Fatal("no queue update")
	}
	q, err := c.ClearQueue(ctx)
	if err != nil || strings.Join(q.Steering, ",") != "steered,also" || strings.Join(q.FollowUp, ",") != "later" {
		t.Fatalf("clear_queue %+v %v", q, err)
	}
	if err := c.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	evs = collectUntil(t, c, isType(TypeAgentSettled))
	ends := find[*MessageEnd](evs)
	if len(ends) == 0 || ends[len(ends)-1].Message.StopReason != StopReasonAborted {
		t.Fatalf("no aborted message_end in %s", typesOf(evs))
	}
}

// TestEveryEventKind runs prompts whose scripts produce every event the
// protocol defines and checks each arrives typed.
func TestEveryEventKind(t *testing.T) {
	c := startFake(t)
	ctx := testContext(t)
	seen := map[string]bool{}
	for _, p := range []string{
		"[[think]] [[tool:bash:seq 3]]",
		"[[retry]]",
		"[[compact]]",
		"[[summ-retry]]",
		"[[ext-error]]",
		"[[ext:notify]] [[ext:status]] [[ext:widget]] [[ext:title]] [[ext:editor-text]]",
		"[[slow:20]] [[long:10]]",
	} {
		if err := c.Prompt(ctx, Prompt{Message: p}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "slow") {
			if err := c.FollowUp(ctx, "then this", nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, ev := range collectUntil(t, c, isType(TypeAgentSettled)) {
			if _, unknown := ev.(*UnknownEvent); unknown {
				t.Fatalf("%s arrived untyped", ev.EventType())
			}
			seen[ev.EventType()] = true
			if r, ok := ev.(*ExtensionUIRequest); ok {
				seen["ui:"+r.Method] = true
			}
		}
	}
	if _, err := c.Bash(ctx, "echo x", nil); err != nil {
		t.Fatal(err)
	}
	for _, ev := range collectUntil(t, c, isType(TypeBashExecutionUpdate)) {
		seen[ev.EventType()] = true
	}
	for _, want := range []string{
		TypeAgentStart, TypeAgentEnd, TypeAgentSettled, TypeTurnStart, TypeTurnEnd,
		TypeMessageStart, TypeMessageUpdate, TypeMessageEnd, TypeBashExecutionUpdate,
		TypeToolExecutionStart, TypeToolExecutionUpdate, TypeToolExecutionEnd, TypeQueueUpdate,
		TypeCompactionStart, TypeCompactionEnd, TypeAutoRetryStart, TypeAutoRetryEnd,
		TypeSummarizationRetryScheduled, TypeSummarizationRetryAttemptStart, TypeSummarizationRetryFinished,
		TypeExtensionError, "ui:notify", "ui:setStatus", "ui:setWidget", "ui:setTitle", "ui:set_editor_text",
	} {
		if !seen[want] {
			t.Errorf("never saw %s", want)
		}
	}
}

func TestStreamAssemblyMatchesMessageEnd(t *testing.T) {
	c := startFake(t)
	if err := c.Prompt(testContext(t), Prompt{Message: "[[think]] [[markdown]] [[tool:bash:seq 2]]"}); err != nil {
		t.Fatal(err)
	}
	var b MessageBuilder
	var tools ToolTracker
	checked := 0
	for _, ev := range collectUntil(t, c, isType(TypeAgentSettled)) {
		if end, ok := ev.(*MessageEnd); ok && end.Message.Role == RoleAssistant {
			live := b.Message()
			if live.Content.Text() != end.Message.Content.Text() || len(live.Content) != len(end.Message.Content) {
				t.Fatalf("assembled %+v\n      end %+v", live.Content, end.Message.Content)
			}
			checked++
		}
		b.Apply(ev)
		tools.Apply(ev)
	}
	runs := tools.Runs()
	if checked == 0 || len(runs) != 1 || !runs[0].Done || runs[0].Updates < 2 || !strings.Contains(runs[0].Output.Content.Text(), "2") {
		t.Fatalf("checked %d messages, runs %+v", checked, runs)
	}
}

func TestExtensionDialogRoundTrip(t *testing.T) {
	log := filepath.Join(t.TempDir(), "stdin.log")
	c := startFake(t, "--fake-log="+log)
	ctx := testContext(t)
	answers := map[string]UIAnswer{
		UISelect:  AnswerValue("Allow"),
		UIConfirm: AnswerConfirmed(true),
		UIInput:   AnswerCancelled(),
		UIEditor:  AnswerValue("line 1\nline 2\u2028"),
	}
	wantJSON := map[string]string{
		UISelect:  `"value":"Allow"`,
		UIConfirm: `"confirmed":true`,
		UIInput:   `"cancelled":true`,
		UIEditor:  `"value":"line 1\nline 2\u2028"`,
	}
	for _, method := range []string{UISelect, UIConfirm, UIInput, UIEditor} {
		if err := c.Prompt(ctx, Prompt{Message: "[[ext:" + method + "]]"}); err != nil {
			t.Fatal(err)
		}
		evs := collectUntil(t, c, isType(TypeExtensionUIRequest))
		req := evs[len(evs)-1].(*ExtensionUIRequest)
		if req.Method != method || !req.IsDialog() || req.Title == "" {
			t.Fatalf("request %+v", req)
		}
		// Other commands are answered while the dialog is open.
		if _, err := c.GetState(ctx); err != nil {
			t.Fatal(err)
		}
		if err := c.Respond(req.ID, answers[method]); err != nil {
			t.Fatal(err)
		}
		evs = collectUntil(t, c, isType(TypeAgentSettled))
		ends := find[*MessageEnd](evs)
		if len(ends) == 0 || !strings.Contains(ends[len(ends)-1].Message.Content.Text(), "answered") {
			t.Fatalf("%s: reply %s", method, typesOf(evs))
		}
		sent, _ := os.ReadFile(log)
		want := `{"type":"extension_ui_response","id":"` + req.ID + `",` + wantJSON[method] + `}`
		if !strings.Contains(string(sent), want) {
			t.Fatalf("%s: stdin log lacks %s:\n%s", method, want, sent)
		}
	}
}

func TestDialogTimeoutIsTheAgents(t *testing.T) {
	c := startFake(t)
	ctx := testContext(t)
	if err := c.Prompt(ctx, Prompt{Message: "[[ext:confirm:timeout=200]]"}); err != nil {
		t.Fatal(err)
	}
	evs := collectUntil(t, c, isType(TypeExtensionUIRequest))
	if req := evs[len(evs)-1].(*ExtensionUIRequest); req.TimeoutMs != 200 {
		t.Fatalf("timeout %d", req.TimeoutMs)
	}
	// Not answering: the agent resolves it by itself and carries on.
	collectUntil(t, c, isType(TypeAgentSettled))
}

func TestFramingOverARealPipe(t *testing.T) {
	c := startFake(t)
	const huge = 9 << 20
	for _, p := range []string{"[[huge:9437184]]", "[[u2028]]", "[[crlf]]", "[[split-writes]] [[markdown]]", "[[garbage]]"} {
		if err := c.Prompt(testContext(t), Prompt{Message: p}); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		evs := collectUntil(t, c, isType(TypeAgentSettled))
		var text strings.Builder
		for _, u := range find[*MessageUpdate](evs) {
			text.WriteString(u.Delta.Delta)
		}
		switch p {
		case "[[huge:9437184]]":
			if text.Len() < huge {
				t.Fatalf("huge delta: %d bytes", text.Len())
			}
		case "[[u2028]]":
			if !strings.Contains(text.String(), "\u2028") || !strings.Contains(text.String(), "\u2029") {
				t.Fatalf("separators lost: %q", text.String())
			}
		case "[[garbage]]":
			if len(find[*ProtocolError](evs)) < 2 {
				t.Fatalf("garbage not reported: %s", typesOf(evs))
			}
		}
		if p != "[[garbage]]" && len(find[*ProtocolError](evs)) > 0 {
			t.Fatalf("%s: unexpected protocol errors %+v", p, find[*ProtocolError](evs))
		}
	}
}

func TestCorrelationSurvivesOddResponses(t *testing.T) {
	c := startFake(t)
	ctx := testContext(t)
	// The prompt's answer comes without an id: it is the only pending prompt.
	if err := c.Prompt(ctx, Prompt{Message: "[[no-id-response]]"}); err != nil {
		t.Fatalf("id-less prompt response: %v", err)
	}
	collectUntil(t, c, isType(TypeAgentSettled))
	if err := c.Prompt(ctx, Prompt{Message: "[[out-of-order]]"}); err != nil {
		t.Fatal(err)
	}
	collectUntil(t, c, isType(TypeAgentSettled))

	// A malformed command gets an id-less parse error that no call can own.
	c.w.enqueue("", []byte("{not json\n"))
	evs := collectUntil(t, c, isType(TypeProtocolError))
	pe := evs[len(evs)-1].(*ProtocolError)
	if pe.Response == nil || pe.Response.Command != "parse" {
		t.Fatalf("parse error %+v", pe)
	}

	// A call given up by its caller: its late answer is dropped quietly.
	// A stopped agent answers only after it is continued.
	stopProcess(t, c.PID())
	short, cancel := contextWithTimeout(50 * time.Millisecond)
	defer cancel()
	_, err := c.GetState(short)
	syscall.Kill(c.PID(), syscall.SIGCONT)
	if !errors.Is(err, errDeadline) {
		t.Fatalf("get_state of a stopped agent: %v", err)
	}
	// Responses come in order of handling here, so once this answers the
	// late one has been read too.
	if err := c.Prompt(ctx, Prompt{Message: "after"}); err != nil {
		t.Fatal(err)
	}
	evs = collectUntil(t, c, isType(TypeAgentSettled))
	if pes := find[*ProtocolError](evs); len(pes) > 0 {
		t.Fatalf("late answer reported: %+v", pes[0])
	}
}

func TestOlderAgentCapabilities(t *testing.T) {
	c := startFake(t, "--fake-older")
	ctx := testContext(t)
	waitFor(t, func() bool { return c.Capabilities().Probed })
	caps := c.Capabilities()
	if caps.SettledEvent || caps.Supports("get_available_thinking_levels") {
		t.Fatalf("capabilities %+v", caps)
	}
	// Unknown commands come back without an id and still reach the caller.
	if _, err := c.GetTree(ctx); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("get_tree: %v", err)
	}
	if _, err := c.GetEntries(ctx, ""); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("get_entries: %v", err)
	}
	st := c.InitialState()
	levels, err := c.ThinkingLevels(ctx, st.Model)
	if err != nil || len(levels) == 0 || levels[0] != "off" {
		t.Fatalf("fallback levels %v %v", levels, err)
	}
	if !st.Model.Reasoning && len(levels) != 1 {
		t.Fatalf("model without reasoning gets %v", levels)
	}
	// A run ends at agent_end: no agent_settled, cumulative fields skipped.
	if err := c.Prompt(ctx, Prompt{Message: "[[markdown]]"}); err != nil {
		t.Fatal(err)
	}
	var run RunTracker
	var b MessageBuilder
	evs := collectUntil(t, c, func(ev Event) bool {
		b.Apply(ev)
		return run.Apply(ev, c.Capabilities().SettledEvent)
	})
	if evs[len(evs)-1].EventType() != TypeAgentEnd || b.Message().Content.Text() == "" {
		t.Fatalf("run ended with %s", typesOf(evs))
	}
	// The second call of a missing command is not even sent.
	if _, err := c.GetTree(ctx); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("second get_tree: %v", err)
	}
}

func TestParseErrorFailsTheOnlyWaitingCall(t *testing.T) {
	c := startFake(t, "--fake-parse-error=get_session_stats")
	ctx := testContext(t)
	waitFor(t, func() bool { return c.Capabilities().Probed })
	// The only call waiting owns the id-less parse error: it fails at once
	// instead of waiting for its deadline (which would be its error).
	_, err := c.GetSessionStats(ctx)
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Command != "get_session_stats" || !strings.Contains(ce.Message, "Failed to parse") {
		t.Fatalf("get_session_stats: %v", err)
	}
	if _, err := c.GetState(ctx); err != nil {
		t.Fatalf("the connection is unusable after a parse error: %v", err)
	}

	// With two calls waiting nobody can say whose line it was: the parse
	// error is reported, and the calls wait on.
	// The bash call is waiting once it is pending, however long its
	// goroutine took to start; it sleeps far longer than the parse error
	// takes to come.
	bash := make(chan error, 1)
	go func() {
		_, err := c.Bash(ctx, "sleep 5", nil)
		bash <- err
	}()
	waitFor(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.pending) == 1
	})
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := c.GetSessionStats(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("get_session_stats beside a running bash: %v", err)
	}
	evs := collectUntil(t, c, isType(TypeProtocolError))
	if pe := evs[len(evs)-1].(*ProtocolError); pe.Response == nil || pe.Response.Command != "parse" {
		t.Fatalf("reported %+v", pe)
	}
	if err := <-bash; err != nil {
		t.Fatalf("bash: %v", err)
	}
}

func TestUnknownCommandWithIDMarksItMissing(t *testing.T) {
	log := filepath.Join(t.TempDir(), "stdin.log")
	c := startFake(t, "--fake-log="+log)
	ctx := testContext(t)
	err := c.Call(ctx, "no_such_command", nil, nil)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("first call: %v", err)
	}
	if c.Capabilities().Supports("no_such_command") {
		t.Fatalf("capabilities %+v", c.Capabilities())
	}
	if err := c.Call(ctx, "no_such_command", nil, nil); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("second call: %v", err)
	}
	data, _ := os.ReadFile(log)
	if n := strings.Count(string(data), `"no_such_command"`); n != 1 {
		t.Fatalf("sent %d times:\n%s", n, data)
	}
}
