package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// canaryKey is set in the test process only; finding it in pi's environment
// would mean the host's variables leak into the agent.
const canaryKey = "KNIGHTCODE_E2E_CANARY"

// TestRealAgent drives one pi through a whole session, step by step. The
// steps share the agent (and so its conversation) and run in order; a failed
// step ends the test because the later ones build on it.
func TestRealAgent(t *testing.T) {
	t.Setenv(canaryKey, "leaked-from-the-test-process")
	a := startAgent(t, pienv.WithExtension(pienv.UIExtension(t)))

	steps := []struct {
		name string
		run  func(*testing.T, *agent)
	}{
		{"1-state", stepState},
		{"1b-environment", stepEnvironment},
		{"2-models", stepModels},
		{"3-markdown", stepMarkdown},
		{"4-bash-tool", stepBashTool},
		{"5-steer", stepSteer},
		{"6-abort", stepAbort},
		{"7-bash-command", stepBashCommand},
		{"8-session-queries", stepSessionQueries},
		{"9a-extension-dialogs", stepExtensionDialogs},
		{"9b-bash-guard", stepBashGuard},
		{"10-shutdown", stepShutdown},
	}
	for _, s := range steps {
		began := time.Now()
		ok := t.Run(s.name, func(t *testing.T) { s.run(t, a) })
		t.Logf("%-20s %v", s.name, time.Since(began).Round(time.Millisecond))
		if !ok {
			t.Fatalf("step %s failed; the later steps build on it", s.name)
		}
	}
}

// stepState: the start-up state and what the capability probe learned.
func stepState(t *testing.T, a *agent) {
	ctx := stepContext(t)
	st := a.conn.InitialState()
	if st.Model == nil || st.Model.ID != pienv.ReasonerModel || st.Model.Provider != pienv.Provider || !st.Model.Reasoning {
		t.Errorf("initial model = %+v", st.Model)
	}
	if st.IsStreaming || st.MessageCount != 0 {
		t.Errorf("initial state = %+v", st)
	}

	// The probe goes out beside get_state and pi answers out of order, so
	// it may still be on its way.
	for !a.conn.Capabilities().Probed {
		select {
		case <-ctx.Done():
			t.Fatalf("the capability probe was never answered: %+v", a.conn.Capabilities())
		case <-time.After(10 * time.Millisecond):
		}
	}
	caps := a.conn.Capabilities()
	if pienv.Selected().IsCurrent() {
		// pi 1.6.0 speaks the 0.9.2 protocol's newer parts.
		if !caps.SettledEvent || len(caps.Missing) != 0 || !caps.Supports("get_available_thinking_levels") {
			t.Errorf("%s: capabilities %+v, want agent_settled and nothing missing", pienv.Selected(), caps)
		}
		if levels, err := a.conn.GetAvailableThinkingLevels(ctx); err != nil || len(levels) == 0 {
			t.Errorf("GetAvailableThinkingLevels: %v, %v", levels, err)
		}
	} else {
		if caps.SettledEvent {
			t.Error("SettledEvent is true, but pi 0.73.1 has no agent_settled")
		}
		if !slices.Equal(caps.Missing, []string{"get_available_thinking_levels"}) || caps.Supports("get_available_thinking_levels") {
			t.Errorf("Missing = %v", caps.Missing)
		}
		// Known missing now, so this fails without asking pi.
		if _, err := a.conn.GetAvailableThinkingLevels(ctx); !errors.Is(err, rpcconn.ErrUnsupported) {
			t.Errorf("GetAvailableThinkingLevels: %v, want ErrUnsupported", err)
		}
	}

	// Probed means the probe's id-less "Unknown command" was routed, so a
	// ProtocolError for it would already be queued; the round trip queues
	// anything else pi wrote meanwhile. drain fails on a ProtocolError.
	if _, err := a.conn.GetState(ctx); err != nil {
		t.Fatalf("get_state: %v", err)
	}
	if evs := a.drain(t); len(evs) > 0 {
		t.Logf("events after start: %s", sequence(evs))
	}
}

// stepEnvironment: pi runs with pienv's environment, not ours.
func stepEnvironment(t *testing.T, a *agent) {
	ctx := stepContext(t)
	res, err := a.conn.Bash(ctx, `echo "canary=${`+canaryKey+`-unset} home=$HOME offline=$PI_OFFLINE"`, nil)
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	out := strings.TrimSpace(res.Output)
	t.Logf("pi's environment: %s", out)
	if !strings.Contains(out, "home="+a.env.Home+" ") || !strings.Contains(out, "offline=1") {
		t.Errorf("pi does not run with pienv's environment: %q", out)
	}
	if !strings.Contains(out, "canary=unset") {
		t.Errorf("the test process's environment leaked into pi: %q", out)
	}
}

// stepModels: the model list, switching model, the thinking-level fallback,
// and a level reaching the model server.
func stepModels(t *testing.T, a *agent) {
	ctx := stepContext(t)
	models, err := a.conn.GetAvailableModels(ctx)
	if err != nil {
		t.Fatalf("get_available_models: %v", err)
	}
	byID := map[string]rpcconn.Model{}
	for _, m := range models {
		byID[m.ID] = m
	}
	reasoner, plain := byID[pienv.ReasonerModel], byID[pienv.PlainModel]
	if reasoner.Provider != pienv.Provider || !reasoner.Reasoning || !slices.Equal(reasoner.Input, []string{"text", "image"}) || !reasoner.AcceptsImages() {
		t.Errorf("reasoner = %+v", reasoner)
	}
	if plain.Provider != pienv.Provider || plain.Reasoning || !slices.Equal(plain.Input, []string{"text"}) || plain.AcceptsImages() {
		t.Errorf("plain = %+v", plain)
	}

	m, err := a.conn.SetModel(ctx, pienv.Provider, pienv.PlainModel)
	if err != nil {
		t.Fatalf("set_model plain: %v", err)
	}
	if m.ID != pienv.PlainModel || m.Reasoning {
		t.Errorf("set_model plain returned %+v", m)
	}
	levels, err := a.conn.ThinkingLevels(ctx, &m)
	if err != nil || !slices.Equal(levels, []string{"off"}) {
		t.Errorf("plain model's levels = %v, %v; want [off]", levels, err)
	}
	if st, err := a.conn.GetState(ctx); err != nil || st.Model == nil || st.Model.ID != pienv.PlainModel || st.ThinkingLevel != "off" {
		t.Errorf("state after set_model plain = %+v (model %+v), %v", st, st.Model, err)
	}

	m, err = a.conn.SetModel(ctx, pienv.Provider, pienv.ReasonerModel)
	if err != nil {
		t.Fatalf("set_model reasoner: %v", err)
	}
	levels, err = a.conn.ThinkingLevels(ctx, &m)
	// pi 1.6.0 asks the model; for pi 0.73.1 the fallback follows its
	// rule: a model without a thinkingLevelMap stops at high in both.
	want := []string{"off", "minimal", "low", "medium", "high"}
	if err != nil || !slices.Equal(levels, want) {
		t.Errorf("reasoner's levels = %v, %v; want %v", levels, err, want)
	}
	if err := a.conn.SetThinkingLevel(ctx, "high"); err != nil {
		t.Fatalf("set_thinking_level: %v", err)
	}
	if st, err := a.conn.GetState(ctx); err != nil || st.Model == nil || st.Model.ID != pienv.ReasonerModel || st.ThinkingLevel != "high" {
		t.Errorf("state after set_thinking_level high = %+v, %v", st, err)
	}

	n := len(a.srv.Requests())
	evs := a.prompt(t, ctx, "Which thinking level is this?", nil)
	t.Logf("events: %s", sequence(evs))
	reqs := a.requestsSince(n)
	if len(reqs) != 1 {
		t.Fatalf("the prompt made %d model requests", len(reqs))
	}
	r := reqs[0]
	t.Logf("request: model %s reasoning_effort %q reasoning fields %v", r.Model, r.ReasoningEffort, rawFields(r.Reasoning))
	if r.Model != pienv.ReasonerModel || r.ReasoningEffort != "high" {
		t.Errorf("request model %q reasoning_effort %q, want %s high", r.Model, r.ReasoningEffort, pienv.ReasonerModel)
	}
	for _, lc := range find[*rpcconn.ThinkingLevelChanged](a.seen) {
		t.Logf("thinking_level_changed %q", lc.Level)
	}
}

// stepMarkdown: a streamed markdown reply assembled from its deltas.
func stepMarkdown(t *testing.T, a *agent) {
	ctx := stepContext(t)
	n := len(a.srv.Requests())
	evs := a.prompt(t, ctx, "[[markdown]] Show me a heading and a code block.", nil)
	t.Logf("events: %s", sequence(evs))

	var b rpcconn.MessageBuilder
	var live rpcconn.Message
	var deltas strings.Builder
	updates, ends := 0, 0
	for _, ev := range evs {
		switch e := ev.(type) {
		case *rpcconn.MessageUpdate:
			updates++
			if e.Delta.Type == "" {
				t.Errorf("message_update %d decoded without a delta type", updates)
			}
			if e.Delta.Type == rpcconn.DeltaTextDelta {
				deltas.WriteString(e.Delta.Delta)
			}
		case *rpcconn.MessageEnd:
			if e.Message.Role == rpcconn.RoleAssistant {
				ends++
				// What the deltas built, before message_end replaces it.
				live = b.Message()
			}
		}
		b.Apply(ev)
	}
	if ends != 1 {
		t.Fatalf("%d assistant message_end events", ends)
	}
	end := find[*rpcconn.MessageEnd](evs)
	final := end[len(end)-1].Message
	text := final.Content.Text()
	if final.StopReason != rpcconn.StopReasonStop {
		t.Errorf("stopReason %q", final.StopReason)
	}
	if got := live.Content.Text(); got != text {
		t.Errorf("assembled text differs from message_end's:\nassembled %q\nmessage_end %q", got, text)
	}
	if deltas.String() != text {
		t.Errorf("text deltas join to %q, message_end has %q", deltas.String(), text)
	}
	if b.Streaming() || b.Message().Content.Text() != text {
		t.Errorf("builder after message_end: streaming %v, text %q", b.Streaming(), b.Message().Content.Text())
	}
	for _, want := range []string{"# Streaming check", "```go\npackage main", "fmt.Println(\"hello, knight\")\n}\n```"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply lacks %q:\n%s", want, text)
		}
	}
	if updates < 10 {
		t.Errorf("only %d message_update events for a markdown reply", updates)
	}
	t.Logf("%d message_update events, %d bytes of text", updates, len(text))
	if reqs := a.requestsSince(n); len(reqs) != 1 || reqs[0].Reply != "markdown" {
		t.Errorf("model requests: %d", len(reqs))
	}
}

// stepBashTool: a bash tool call streamed into a ToolTracker, and the reply
// that quotes its output.
func stepBashTool(t *testing.T, a *agent) {
	ctx := stepContext(t)
	const command = "for i in 1 2 3 4 5; do echo line$i; sleep 0.2; done"
	var guard *rpcconn.ExtensionUIRequest
	evs := a.prompt(t, ctx, "[[bash:"+command+"]]", func(r *rpcconn.ExtensionUIRequest) (rpcconn.UIAnswer, bool) {
		guard = r
		return allowBash(r)
	})
	t.Logf("events: %s", sequence(evs))

	var tools rpcconn.ToolTracker
	var partials []string
	for _, ev := range evs {
		tools.Apply(ev)
		if u, ok := ev.(*rpcconn.ToolExecutionUpdate); ok {
			partials = append(partials, u.PartialResult.Content.Text())
			if len(partials) == 1 {
				t.Logf("first partialResult: content %#v (nil %v), details %s", u.PartialResult.Content, u.PartialResult.Content == nil, u.PartialResult.Details)
			}
		}
	}
	runs := tools.Runs()
	if len(runs) != 1 {
		t.Fatalf("%d tool runs", len(runs))
	}
	run := runs[0]
	if run.ToolName != "bash" || !run.Done || run.IsError || !strings.Contains(string(run.Args), "line$i") {
		t.Errorf("run = %+v (args %s)", run, run.Args)
	}
	if guard == nil || guard.Message != command {
		t.Errorf("the extension's guard asked %+v", guard)
	}
	// Each update is the whole output so far (replace, not append), so each
	// one extends the one before.
	if run.Updates < 2 {
		t.Errorf("%d tool_execution_update events for output over a second", run.Updates)
	}
	for i := 1; i < len(partials); i++ {
		if !strings.HasPrefix(partials[i], partials[i-1]) {
			t.Errorf("partialResult %d %q does not extend %q", i, partials[i], partials[i-1])
		}
	}
	t.Logf("partialResult texts: %q", partials)
	output := run.Output.Content.Text()
	if want := "line1\nline2\nline3\nline4\nline5"; !strings.Contains(output, want) {
		t.Errorf("tool output %q lacks %q", output, want)
	}
	if len(partials) > 0 && !strings.HasPrefix(output, partials[len(partials)-1]) {
		t.Errorf("final output %q does not extend the last partial %q", output, partials[len(partials)-1])
	}

	ends := find[*rpcconn.MessageEnd](evs)
	last := ends[len(ends)-1].Message
	if want := "Tool output was: line1 line2 line3 line4 line5"; last.Role != rpcconn.RoleAssistant || !strings.Contains(last.Content.Text(), want) {
		t.Errorf("follow-up reply %q, want it to quote %q", last.Content.Text(), want)
	}
}

// stepSteer: steering and a follow-up sent while a reply streams.
func stepSteer(t *testing.T, a *agent) {
	ctx := stepContext(t)
	const steer = "steered-knight: mention the rook"
	const followUp = "followup-knight: and the bishop"
	n := len(a.srv.Requests())
	a.send(t, ctx, rpcconn.Prompt{Message: "[[slow:200]] [[long:30]] Write a long answer slowly."})
	evs := a.until(t, ctx, "the first text delta", isTextDelta, nil)

	a.send(t, ctx, rpcconn.Prompt{Message: steer, StreamingBehavior: rpcconn.StreamSteer})
	if err := a.conn.FollowUp(ctx, followUp, nil); err != nil {
		t.Fatalf("follow_up: %v", err)
	}
	a.prompts = append(a.prompts, followUp)
	evs = append(evs, a.untilSettled(t, ctx, nil)...)
	t.Logf("events: %s", sequence(evs))

	queues := find[*rpcconn.QueueUpdate](evs)
	sawSteer, sawFollowUp := false, false
	for _, q := range queues {
		sawSteer = sawSteer || slices.Contains(q.Steering, steer)
		sawFollowUp = sawFollowUp || slices.Contains(q.FollowUp, followUp)
		t.Logf("queue_update steering %q followUp %q", q.Steering, q.FollowUp)
	}
	if !sawSteer || !sawFollowUp {
		t.Errorf("queue_update never listed the steer (%v) or the follow-up (%v)", sawSteer, sawFollowUp)
	}
	if len(queues) > 0 {
		if q := queues[len(queues)-1]; len(q.Steering)+len(q.FollowUp) != 0 {
			t.Errorf("queue not empty at the end: %+v", q)
		}
	}

	steerAt, followAt := -1, -1
	for i, r := range a.requestsSince(n) {
		t.Logf("request %d: last user text %q, reply %s", i, r.LastUserText(), r.Reply)
		switch r.LastUserText() {
		case steer:
			steerAt = i
		case followUp:
			followAt = i
		}
	}
	if steerAt < 1 || followAt <= steerAt {
		t.Errorf("steer reached the model in request %d and the follow-up in %d; want both after the first, steer first", steerAt, followAt)
	}
}

func isTextDelta(ev rpcconn.Event) bool {
	u, ok := ev.(*rpcconn.MessageUpdate)
	return ok && u.Delta.Type == rpcconn.DeltaTextDelta
}

// stepAbort: aborting a slow stream.
func stepAbort(t *testing.T, a *agent) {
	ctx := stepContext(t)
	a.send(t, ctx, rpcconn.Prompt{Message: "[[slow:300]] [[long:200]] Keep going until stopped."})
	evs := a.until(t, ctx, "the first text delta", isTextDelta, nil)

	began := time.Now()
	if err := a.conn.Abort(ctx); err != nil {
		t.Fatalf("abort: %v", err)
	}
	t.Logf("abort answered after %v", time.Since(began).Round(time.Millisecond))
	// The reader is sequential: whatever pi wrote before the abort response
	// is queued by now.
	before := a.drain(t)
	t.Logf("queued when abort answered: %s", sequence(before))
	evs = append(evs, before...)
	if !a.runs.Running() {
		t.Logf("the run had settled by the time abort answered")
	} else {
		evs = append(evs, a.untilSettled(t, ctx, nil)...)
	}
	t.Logf("events: %s", sequence(evs))
	if len(find[*rpcconn.AgentEnd](before)) == 0 {
		t.Errorf("abort answered before agent_end")
	}

	var aborted *rpcconn.Message
	for _, e := range find[*rpcconn.MessageEnd](evs) {
		if e.Message.Role == rpcconn.RoleAssistant {
			aborted = &e.Message
		}
	}
	if aborted == nil || aborted.StopReason != rpcconn.StopReasonAborted {
		t.Fatalf("assistant message_end = %+v, want stopReason aborted", aborted)
	}
	t.Logf("aborted message: %d bytes of text, errorMessage %q", len(aborted.Content.Text()), aborted.ErrorMessage)
	// pi cut the stream: the model server has nothing left to answer.
	if err := a.srv.WaitIdle(ctx); err != nil {
		t.Errorf("model server still streaming after abort: %v", err)
	}
}

// stepBashCommand: a direct bash command's streamed output, and its arrival
// at the model with the next prompt.
func stepBashCommand(t *testing.T, a *agent) {
	ctx := stepContext(t)
	var mu sync.Mutex
	var chunks []string
	res, err := a.conn.Bash(ctx, "echo hello-from-bash", func(d string) {
		mu.Lock()
		defer mu.Unlock()
		chunks = append(chunks, d)
	})
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	mu.Lock()
	streamed := strings.Join(chunks, "")
	mu.Unlock()
	t.Logf("bash: %d chunks %q; result output %q exit %v cancelled %v truncated %v",
		len(chunks), chunks, res.Output, deref(res.ExitCode), res.Cancelled, res.Truncated)
	if !strings.Contains(res.Output, "hello-from-bash") || res.ExitCode == nil || *res.ExitCode != 0 || res.Cancelled {
		t.Errorf("result = %+v (exit %v)", res, deref(res.ExitCode))
	}
	// bash_execution_update is newer than pi 0.73.1, which sends nothing
	// while the command runs; what a newer agent streams must add up to
	// the result, and must all be delivered before Bash returns.
	if streamed != "" && streamed != res.Output {
		t.Errorf("onOutput got %q, the result has %q", streamed, res.Output)
	}
	evs := a.drain(t)
	if updates := find[*rpcconn.BashExecutionUpdate](evs); len(updates) != len(chunks) {
		t.Errorf("%d bash_execution_update events, %d chunks given to onOutput", len(updates), len(chunks))
	}
	if len(evs) > 0 {
		t.Logf("events queued during bash: %s", sequence(evs))
	}

	n := len(a.srv.Requests())
	evs = a.prompt(t, ctx, "What did the shell print?", nil)
	t.Logf("events: %s", sequence(evs))
	reqs := a.requestsSince(n)
	if len(reqs) == 0 {
		t.Fatal("the prompt made no model request")
	}
	found := false
	for _, m := range reqs[0].Messages {
		if strings.Contains(m.Text, "hello-from-bash") {
			found = true
			t.Logf("bash output reached the model as a %s message: %q", m.Role, m.Text)
		}
	}
	if !found {
		t.Errorf("the next request does not carry the bash output; last message %+v", reqs[0].LastMessage())
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// stepSessionQueries: the read-only session commands after a full session.
func stepSessionQueries(t *testing.T, a *agent) {
	ctx := stepContext(t)
	stats, err := a.conn.GetSessionStats(ctx)
	if err != nil {
		t.Fatalf("get_session_stats: %v", err)
	}
	t.Logf("stats: %+v", stats)
	if stats.Tokens.Input <= 0 || stats.Tokens.Output <= 0 || stats.Tokens.Total <= 0 {
		t.Errorf("tokens = %+v", stats.Tokens)
	}

	msgs, err := a.conn.GetMessages(ctx)
	if err != nil {
		t.Fatalf("get_messages: %v", err)
	}
	var roles, userTexts []string
	sawBash := false
	for _, m := range msgs {
		roles = append(roles, m.Role)
		switch m.Role {
		case rpcconn.RoleUser:
			userTexts = append(userTexts, m.Content.Text())
		case rpcconn.RoleBashExecution:
			sawBash = sawBash || m.Command == "echo hello-from-bash"
		}
	}
	// One message per thing the steps did, in the order they did it.
	wantRoles := slices.Concat(
		[]string{"bashExecution"},                                // 1b environment
		[]string{"user", "assistant"},                            // 2 models
		[]string{"user", "assistant"},                            // 3 markdown
		[]string{"user", "assistant", "toolResult", "assistant"}, // 4 bash tool
		[]string{"user", "assistant", "user", "assistant"},       // 5 prompt, steer
		[]string{"user", "assistant"},                            // 5 follow-up
		[]string{"user", "assistant"},                            // 6 aborted
		[]string{"bashExecution", "user", "assistant"},           // 7
	)
	if pienv.Selected().IsCurrent() {
		// pi 1.6.0 puts its system prompt, a message of role system with
		// the prompt's sections, before the first prompt's turn. It is not
		// a chat turn: the window never shows it as one.
		wantRoles = slices.Insert(wantRoles, 1, "system")
		if i := slices.Index(roles, "system"); i >= 0 && len(msgs[i].Sections) == 0 {
			t.Errorf("the system message has no sections: %+v", msgs[i])
		}
	}
	if !slices.Equal(roles, wantRoles) {
		t.Errorf("roles = %v\nwant    %v", roles, wantRoles)
	}
	if !slices.Equal(userTexts, a.prompts) {
		t.Errorf("user messages in order = %q, want the prompts sent %q", userTexts, a.prompts)
	}
	if !sawBash {
		t.Error("no bashExecution message for the bash command")
	}
	if stats.TotalMessages != len(msgs) || stats.UserMessages != len(a.prompts) {
		t.Errorf("stats count %d messages, %d user; get_messages has %d, %d prompts sent", stats.TotalMessages, stats.UserMessages, len(msgs), len(a.prompts))
	}

	last, ok, err := a.conn.GetLastAssistantText(ctx)
	if err != nil || !ok {
		t.Fatalf("get_last_assistant_text: %q %v %v", last, ok, err)
	}
	// pi trims the text; the message keeps the model's final newline.
	if want := msgs[len(msgs)-1].Content.Text(); last != strings.TrimSpace(want) {
		t.Errorf("last assistant text %q, last message %q", last, want)
	}

	cmds, err := a.conn.GetCommands(ctx)
	if err != nil {
		t.Fatalf("get_commands: %v", err)
	}
	ext, _ := filepath.EvalSymlinks(pienv.UIExtension(t))
	for _, name := range []string{"ask", "decorate"} {
		i := slices.IndexFunc(cmds, func(c rpcconn.Command) bool { return c.Name == name })
		if i < 0 {
			t.Errorf("get_commands lacks %s: %+v", name, cmds)
			continue
		}
		c := cmds[i]
		t.Logf("command %s: source %q scope %q path %q sourceInfo %+v", c.Name, c.Source, c.Scope(), c.FilePath(), c.SourceInfo)
		path, _ := filepath.EvalSymlinks(c.FilePath())
		if c.Source != "extension" || c.SourceInfo == nil || path != ext || c.Description == "" {
			t.Errorf("command %s = %+v (sourceInfo %+v), want from %s", name, c, c.SourceInfo, ext)
		}
	}

	forks, err := a.conn.GetForkMessages(ctx)
	if err != nil {
		t.Fatalf("get_fork_messages: %v", err)
	}
	var forkTexts []string
	for _, f := range forks {
		if f.EntryID == "" {
			t.Errorf("fork message without entry id: %+v", f)
		}
		forkTexts = append(forkTexts, f.Text)
	}
	if !slices.Equal(forkTexts, a.prompts) {
		t.Errorf("fork messages %q, want the prompts %q", forkTexts, a.prompts)
	}
}

// stepExtensionDialogs: the UI extension's /ask dialogs answered through
// Respond, and /decorate's fire-and-forget requests.
func stepExtensionDialogs(t *testing.T, a *agent) {
	ctx := stepContext(t)
	n := len(a.srv.Requests())
	// pi answers a prompt that runs an extension command only when the
	// command is done, dialogs included: waiting for it here would deadlock.
	answered := make(chan error, 1)
	go func() { answered <- a.conn.Prompt(ctx, rpcconn.Prompt{Message: "/ask"}) }()

	var methods []string
	var notify *rpcconn.ExtensionUIRequest
	evs := a.until(t, ctx, "the notify of /ask", func(ev rpcconn.Event) bool {
		r, ok := ev.(*rpcconn.ExtensionUIRequest)
		if ok {
			methods = append(methods, r.Method)
		}
		if ok && r.Method == rpcconn.UINotify {
			notify = r
			return true
		}
		return false
	}, func(r *rpcconn.ExtensionUIRequest) (rpcconn.UIAnswer, bool) {
		switch {
		case r.Method == rpcconn.UISelect && r.Title == "Pick a color" && slices.Equal(r.Options, []string{"red", "green", "blue"}):
			return rpcconn.AnswerValue("green"), true
		case r.Method == rpcconn.UIConfirm && r.Title == "Proceed?" && r.Message == "Answer the remaining questions too?":
			return rpcconn.AnswerConfirmed(true), true
		case r.Method == rpcconn.UIInput && r.Title == "Your name" && r.Placeholder == "type a name":
			return rpcconn.AnswerValue("Ann"), true
		case r.Method == rpcconn.UIEditor && r.Title == "Notes" && r.Prefill == "line one\nline two":
			return rpcconn.AnswerCancelled(), true
		}
		return rpcconn.UIAnswer{}, false
	})
	t.Logf("events: %s", sequence(evs))
	if want := []string{"select", "confirm", "input", "editor", "notify"}; !slices.Equal(methods, want) {
		t.Errorf("requests %v, want %v", methods, want)
	}
	if want := `select="green" confirm=true input="Ann" editor=cancelled`; notify.Message != want || notify.NotifyType != "info" {
		t.Errorf("notify = %q (%q), want %q", notify.Message, notify.NotifyType, want)
	}
	select {
	case err := <-answered:
		if err != nil {
			t.Errorf("prompt /ask: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("prompt /ask never answered")
	}

	if err := a.conn.Prompt(ctx, rpcconn.Prompt{Message: "/decorate"}); err != nil {
		t.Fatalf("prompt /decorate: %v", err)
	}
	var reqs []*rpcconn.ExtensionUIRequest
	a.until(t, ctx, "the requests of /decorate", func(ev rpcconn.Event) bool {
		if r, ok := ev.(*rpcconn.ExtensionUIRequest); ok {
			reqs = append(reqs, r)
		}
		return len(reqs) == 4
	}, nil)
	if len(reqs) != 4 {
		t.Fatalf("/decorate sent %d requests: %+v", len(reqs), reqs)
	}
	status, widget, title, editor := reqs[0], reqs[1], reqs[2], reqs[3]
	if status.Method != rpcconn.UISetStatus || status.StatusKey != "knight" || status.StatusText == nil || *status.StatusText != "Decorated" {
		t.Errorf("setStatus = %+v", status)
	}
	if widget.Method != rpcconn.UISetWidget || widget.WidgetKey != "knight" || !slices.Equal(widget.WidgetLines, []string{"Widget line 1", "Widget line 2"}) {
		t.Errorf("setWidget = %+v", widget)
	}
	if title.Method != rpcconn.UISetTitle || title.Title != "KnightCode test title" {
		t.Errorf("setTitle = %+v", title)
	}
	if editor.Method != rpcconn.UISetEditorText || editor.Text != "Text from /decorate" {
		t.Errorf("set_editor_text = %+v", editor)
	}
	if got := len(a.requestsSince(n)); got != 0 {
		t.Errorf("extension commands reached the model %d times", got)
	}
}

// stepBashGuard: the extension's tool_call hook blocks a bash tool call
// when the user says no and lets it run when the user says yes.
func stepBashGuard(t *testing.T, a *agent) {
	const command = "echo guarded"
	for _, allow := range []bool{false, true} {
		ctx := stepContext(t)
		asked := 0
		evs := a.prompt(t, ctx, "[[bash:"+command+"]]", func(r *rpcconn.ExtensionUIRequest) (rpcconn.UIAnswer, bool) {
			asked++
			return rpcconn.AnswerConfirmed(allow), r.Method == rpcconn.UIConfirm && r.Title == "Allow bash?" && r.Message == command
		})
		t.Logf("allow %v: events: %s", allow, sequence(evs))
		if asked != 1 {
			t.Errorf("allow %v: asked %d times", allow, asked)
		}
		var tools rpcconn.ToolTracker
		for _, ev := range evs {
			tools.Apply(ev)
		}
		runs := tools.Runs()
		if len(runs) != 1 || !runs[0].Done {
			t.Fatalf("allow %v: tool runs %+v", allow, runs)
		}
		out := runs[0].Output.Content.Text()
		t.Logf("allow %v: tool result isError %v %q", allow, runs[0].IsError, out)
		blocked := runs[0].IsError || strings.Contains(out, "Blocked")
		if allow == blocked {
			t.Errorf("allow %v: tool result isError %v %q", allow, runs[0].IsError, out)
		}
		if allow && strings.TrimSpace(out) != "guarded" {
			t.Errorf("allowed tool printed %q", out)
		}
		ends := find[*rpcconn.MessageEnd](evs)
		reply := ends[len(ends)-1].Message.Content.Text()
		if want := map[bool]string{false: "Blocked by user", true: "Tool output was: guarded"}[allow]; !strings.Contains(reply, want) {
			t.Errorf("allow %v: reply %q lacks %q", allow, reply, want)
		}
	}
}

// stepShutdown: closing stdin ends pi by itself, and nothing is left over.
func stepShutdown(t *testing.T, a *agent) {
	ctx := stepContext(t)
	pid := a.conn.PID()
	began := time.Now()
	a.conn.Close()
	t.Logf("Close returned after %v", time.Since(began).Round(time.Millisecond))

	exit := a.conn.ExitInfo()
	if exit == nil {
		t.Fatal("no exit after Close")
	}
	// A clean code 0 with no signal means pi left on stdin close: had Close
	// needed SIGTERM or SIGKILL, the exit would name the signal.
	if !exit.Expected || exit.Code != 0 || exit.Signal != "" || exit.Err != nil {
		t.Errorf("exit = %+v", exit)
	}
	var rest []rpcconn.Event
	for {
		ev, err := a.conn.NextEvent(ctx)
		if errors.Is(err, rpcconn.ErrClosed) {
			break
		}
		if err != nil {
			t.Fatalf("draining events after Close: %v", err)
		}
		a.seen = append(a.seen, ev)
		rest = append(rest, ev)
	}
	if len(rest) == 0 || rest[len(rest)-1] != rpcconn.Event(exit) {
		t.Errorf("events after Close %s, want them to end with the exit", sequence(rest))
	}
	// Close returns once pi is reaped; the tools of its group end a
	// moment later.
	testsupport.EventuallyGone(t, fmt.Sprintf("pi (pid %d) and its process group, after Close", pid), func() string {
		if gone, err := processGone(pid); err != nil || !gone {
			return fmt.Sprintf("pi or a process of group %d (%v)", pid, err)
		}
		return ""
	})

	// Over the whole session: nothing surfaced as a protocol error.
	counts := map[string]int{}
	for _, ev := range a.seen {
		counts[ev.EventType()]++
		if pe, ok := ev.(*rpcconn.ProtocolError); ok {
			t.Errorf("protocol error during the session: %v", pe)
		}
	}
	t.Logf("events over the session: %v", counts)
}

// rawFields lists a request's reasoning fields as they were sent.
func rawFields(m map[string]json.RawMessage) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+string(v))
	}
	slices.Sort(out)
	return out
}
