package modelsetup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// AgentCommand is how the agent is started: its program, working folder
// and environment (nil: ours).
type AgentCommand struct {
	Path string
	Dir  string
	Env  []string
}

// CheckResult is the answer to one small request through the agent.
type CheckResult struct {
	// Model is the model that answered, "provider/id".
	Model string
	// Reply is what it said.
	Reply string
}

// checkTimeout bounds the whole check: a cold start of the agent and one
// short reply from a hosted model.
const checkTimeout = 90 * time.Second

// checkPrompt asks for as little as a model can answer.
const checkPrompt = "Reply with the single word OK."

// Check makes one small request to provider through the agent itself, so
// what is checked is what the agent will do with the key: it starts a
// separate agent (no session, no extensions, skills, templates or context
// files), on model when given, else on the provider's first model the agent
// lists (the one it runs now, if it is the provider's), asks for one word
// and returns the answer, or the agent's error in words. The user's own
// agent and session are not touched.
func Check(ctx context.Context, a AgentCommand, provider, model string) (CheckResult, error) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	conn, err := rpcconn.Start(ctx, rpcconn.Options{
		Path: a.Path, Dir: a.Dir, Env: a.Env, ExactEnv: a.Env != nil,
		// No --provider: pi 1.6 wants a --model with it; the model is set
		// below, from what the agent lists.
		Args: []string{"--no-session", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-context-files"},
	})
	if err != nil {
		return CheckResult{}, fmt.Errorf("the agent did not start: %w", err)
	}
	defer conn.Close()
	models, err := conn.GetAvailableModels(ctx)
	if err != nil {
		return CheckResult{}, fmt.Errorf("the agent did not list its models: %w", err)
	}
	var ids []string
	for _, m := range models {
		if m.Provider == provider {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return CheckResult{}, fmt.Errorf("the agent lists no %s models: it does not take the key as it is stored, or knows no models for %s", provider, provider)
	}
	st := conn.InitialState()
	switch {
	case model == "" && st.Model != nil && st.Model.Provider == provider:
		model = st.Model.ID
	case model == "":
		model = ids[0]
		fallthrough
	case st.Model == nil || st.Model.Provider != provider || st.Model.ID != model:
		if _, err := conn.SetModel(ctx, provider, model); err != nil {
			return CheckResult{}, fmt.Errorf("the agent did not take %s/%s: %w", provider, model, err)
		}
	}
	res := CheckResult{Model: provider + "/" + model}
	if err := conn.Prompt(ctx, rpcconn.Prompt{Message: checkPrompt}); err != nil {
		return res, fmt.Errorf("the agent did not take the request: %w", err)
	}
	var runs rpcconn.RunTracker
	var last rpcconn.Message
	for {
		ev, err := conn.NextEvent(ctx)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return res, fmt.Errorf("no answer within %s", checkTimeout)
			}
			return res, err
		}
		switch e := ev.(type) {
		case *rpcconn.MessageEnd:
			if e.Message.Role == "assistant" {
				last = e.Message
			}
		case *rpcconn.Exit:
			return res, fmt.Errorf("the agent exited: %s", strings.TrimSpace(conn.StderrTail()))
		}
		if runs.Apply(ev, false) {
			break
		}
	}
	if last.StopReason == "error" || last.ErrorMessage != "" {
		return res, fmt.Errorf("%s", orWords(last.ErrorMessage, "the model answered with an error"))
	}
	res.Reply = strings.TrimSpace(last.Content.Text())
	if res.Reply == "" {
		return res, errors.New("the model answered with nothing")
	}
	return res, nil
}

func orWords(s, otherwise string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return otherwise
}
