package rpcconn

import (
	"context"
	"errors"
)

// Streaming behaviours for a prompt sent while the agent is running.
const (
	StreamSteer    = "steer"
	StreamFollowUp = "followUp"
)

// Queue delivery modes for SetSteeringMode and SetFollowUpMode.
const (
	ModeAll        = "all"
	ModeOneAtATime = "one-at-a-time"
)

// Prompt is a user prompt.
type Prompt struct {
	Message string  `json:"message"`
	Images  []Image `json:"images,omitempty"`
	// StreamingBehavior (StreamSteer or StreamFollowUp) is required while
	// the agent is running.
	StreamingBehavior string `json:"streamingBehavior,omitempty"`
}

type messageParams struct {
	Message string  `json:"message"`
	Images  []Image `json:"images,omitempty"`
}

// Prompt sends a prompt. Success means accepted, not done: the run goes on
// in events until it settles.
func (c *Conn) Prompt(ctx context.Context, p Prompt) error {
	_, err := c.PromptDisposition(ctx, p)
	return err
}

// Dispositions of an accepted prompt (newer agents: 0.9.2, pi 1.6): a run
// started, the message was queued, or a command handled it without a run
// (and without a user message).
const (
	DispositionStarted = "started"
	DispositionQueued  = "queued"
	DispositionHandled = "handled"
)

// PromptDisposition is Prompt, saying what the agent did with it; "" for
// an agent that does not say (pi 0.73.1).
func (c *Conn) PromptDisposition(ctx context.Context, p Prompt) (string, error) {
	var data struct {
		Disposition string `json:"disposition"`
	}
	err := c.Call(ctx, "prompt", p, &data)
	return data.Disposition, err
}

// Steer queues a message delivered after the current turn's tool calls.
func (c *Conn) Steer(ctx context.Context, message string, images []Image) error {
	return c.Call(ctx, "steer", messageParams{message, images}, nil)
}

// FollowUp queues a message delivered when the agent finishes.
func (c *Conn) FollowUp(ctx context.Context, message string, images []Image) error {
	return c.Call(ctx, "follow_up", messageParams{message, images}, nil)
}

// Abort stops the current operation; it answers once the agent is idle.
func (c *Conn) Abort(ctx context.Context) error {
	return c.Call(ctx, "abort", nil, nil)
}

// ClearQueue removes the queued steering and follow-up messages and returns
// their texts, to be put back in the editor.
func (c *Conn) ClearQueue(ctx context.Context) (QueuedMessages, error) {
	var q QueuedMessages
	err := c.Call(ctx, "clear_queue", nil, &q)
	return q, err
}

type cancelledResult struct {
	Cancelled bool `json:"cancelled"`
}

// NewSession starts a fresh session (parentSession may be empty). Cancelled
// is true when an extension vetoed it.
func (c *Conn) NewSession(ctx context.Context, parentSession string) (cancelled bool, err error) {
	var r cancelledResult
	err = c.Call(ctx, "new_session", struct {
		ParentSession string `json:"parentSession,omitempty"`
	}{parentSession}, &r)
	return r.Cancelled, err
}

// GetState returns the session state.
func (c *Conn) GetState(ctx context.Context) (SessionState, error) {
	var s SessionState
	err := c.Call(ctx, "get_state", nil, &s)
	return s, err
}

// GetMessages returns every message of the conversation.
func (c *Conn) GetMessages(ctx context.Context) ([]Message, error) {
	var r struct {
		Messages []Message `json:"messages"`
	}
	err := c.Call(ctx, "get_messages", nil, &r)
	return r.Messages, err
}

// SetModel switches to a model and returns it.
func (c *Conn) SetModel(ctx context.Context, provider, modelID string) (Model, error) {
	var m Model
	err := c.Call(ctx, "set_model", struct {
		Provider string `json:"provider"`
		ModelID  string `json:"modelId"`
	}{provider, modelID}, &m)
	return m, err
}

// CycleModel moves to the next model; nil when there is only one.
func (c *Conn) CycleModel(ctx context.Context) (*CycleModelResult, error) {
	var r *CycleModelResult
	err := c.Call(ctx, "cycle_model", nil, &r)
	return r, err
}

// GetAvailableModels lists the configured models.
func (c *Conn) GetAvailableModels(ctx context.Context) ([]Model, error) {
	var r struct {
		Models []Model `json:"models"`
	}
	err := c.Call(ctx, "get_available_models", nil, &r)
	return r.Models, err
}

// SetThinkingLevel sets the reasoning level (off … max).
func (c *Conn) SetThinkingLevel(ctx context.Context, level string) error {
	return c.Call(ctx, "set_thinking_level", struct {
		Level string `json:"level"`
	}{level}, nil)
}

// CycleThinkingLevel moves to the next level; ok is false when the model
// has no thinking.
func (c *Conn) CycleThinkingLevel(ctx context.Context) (level string, ok bool, err error) {
	var r *struct {
		Level string `json:"level"`
	}
	err = c.Call(ctx, "cycle_thinking_level", nil, &r)
	if err != nil || r == nil {
		return "", false, err
	}
	return r.Level, true, nil
}

// GetAvailableThinkingLevels lists the current model's levels. Older agents
// lack it (ErrUnsupported); ThinkingLevels falls back for them.
func (c *Conn) GetAvailableThinkingLevels(ctx context.Context) ([]string, error) {
	var r struct {
		Levels []string `json:"levels"`
	}
	err := c.Call(ctx, "get_available_thinking_levels", nil, &r)
	return r.Levels, err
}

// ThinkingLevels returns the levels for the current model, from the agent
// when it can say, else the older agents' rule (fallbackThinkingLevels).
func (c *Conn) ThinkingLevels(ctx context.Context, current *Model) ([]string, error) {
	levels, err := c.GetAvailableThinkingLevels(ctx)
	if errors.Is(err, ErrUnsupported) {
		return fallbackThinkingLevels(current), nil
	}
	return levels, err
}

type modeParams struct {
	Mode string `json:"mode"`
}

// SetSteeringMode sets how steering messages are delivered (ModeAll or ModeOneAtATime).
func (c *Conn) SetSteeringMode(ctx context.Context, mode string) error {
	return c.Call(ctx, "set_steering_mode", modeParams{mode}, nil)
}

// SetFollowUpMode sets how follow-up messages are delivered.
func (c *Conn) SetFollowUpMode(ctx context.Context, mode string) error {
	return c.Call(ctx, "set_follow_up_mode", modeParams{mode}, nil)
}

// Compact summarises the conversation to free context; instructions may be empty.
func (c *Conn) Compact(ctx context.Context, instructions string) (CompactionResult, error) {
	var r CompactionResult
	err := c.Call(ctx, "compact", struct {
		CustomInstructions string `json:"customInstructions,omitempty"`
	}{instructions}, &r)
	return r, err
}

type enabledParams struct {
	Enabled bool `json:"enabled"`
}

// SetAutoCompaction turns automatic compaction on or off.
func (c *Conn) SetAutoCompaction(ctx context.Context, enabled bool) error {
	return c.Call(ctx, "set_auto_compaction", enabledParams{enabled}, nil)
}

// SetAutoRetry turns automatic retry of transient errors on or off.
func (c *Conn) SetAutoRetry(ctx context.Context, enabled bool) error {
	return c.Call(ctx, "set_auto_retry", enabledParams{enabled}, nil)
}

// AbortRetry cancels a retry in progress.
func (c *Conn) AbortRetry(ctx context.Context) error {
	return c.Call(ctx, "abort_retry", nil, nil)
}

// Bash runs a shell command in the agent; its output reaches the model with
// the next prompt. onOutput (may be nil) gets each output chunk in order,
// from a goroutine of its own, before Bash returns.
func (c *Conn) Bash(ctx context.Context, command string, onOutput func(delta string)) (BashResult, error) {
	var out *mailbox[string]
	delivered := make(chan struct{})
	if onOutput != nil {
		out = newMailbox[string]()
		go func() {
			defer close(delivered)
			var batch []string
			for more := true; more; {
				<-out.ready
				batch, more = out.take(batch[:0])
				for _, d := range batch {
					onOutput(d)
				}
			}
		}()
	} else {
		close(delivered)
	}
	resp, err := c.roundTrip(ctx, "bash", struct {
		Command string `json:"command"`
	}{command}, out)
	if out != nil {
		out.close()
	}
	<-delivered
	var r BashResult
	if err == nil {
		err = decodeData(resp, &r)
	}
	return r, err
}

// AbortBash stops a running bash command.
func (c *Conn) AbortBash(ctx context.Context) error {
	return c.Call(ctx, "abort_bash", nil, nil)
}

// GetSessionStats returns token, cost and context-window figures.
func (c *Conn) GetSessionStats(ctx context.Context) (SessionStats, error) {
	var s SessionStats
	err := c.Call(ctx, "get_session_stats", nil, &s)
	return s, err
}

// ExportHTML writes the session as HTML (to outputPath, or where the agent
// chooses when empty) and returns the file's path.
func (c *Conn) ExportHTML(ctx context.Context, outputPath string) (string, error) {
	var r struct {
		Path string `json:"path"`
	}
	err := c.Call(ctx, "export_html", struct {
		OutputPath string `json:"outputPath,omitempty"`
	}{outputPath}, &r)
	return r.Path, err
}

// SwitchSession loads another session file; cancelled when an extension vetoed it.
func (c *Conn) SwitchSession(ctx context.Context, sessionPath string) (cancelled bool, err error) {
	var r cancelledResult
	err = c.Call(ctx, "switch_session", struct {
		SessionPath string `json:"sessionPath"`
	}{sessionPath}, &r)
	return r.Cancelled, err
}

// ForkResult is the text of the message forked from, for the editor.
type ForkResult struct {
	Text      string `json:"text"`
	Cancelled bool   `json:"cancelled"`
}

// Fork starts a new branch before a user message.
func (c *Conn) Fork(ctx context.Context, entryID string) (ForkResult, error) {
	var r ForkResult
	err := c.Call(ctx, "fork", struct {
		EntryID string `json:"entryId"`
	}{entryID}, &r)
	return r, err
}

// Clone copies the active branch into a new session.
func (c *Conn) Clone(ctx context.Context) (cancelled bool, err error) {
	var r cancelledResult
	err = c.Call(ctx, "clone", nil, &r)
	return r.Cancelled, err
}

// GetForkMessages lists the user messages a fork can start from.
func (c *Conn) GetForkMessages(ctx context.Context) ([]ForkMessage, error) {
	var r struct {
		Messages []ForkMessage `json:"messages"`
	}
	err := c.Call(ctx, "get_fork_messages", nil, &r)
	return r.Messages, err
}

// GetEntries returns session entries after the entry id since (all when empty).
func (c *Conn) GetEntries(ctx context.Context, since string) (Entries, error) {
	var r Entries
	err := c.Call(ctx, "get_entries", struct {
		Since string `json:"since,omitempty"`
	}{since}, &r)
	return r, err
}

// GetTree returns the session as a tree.
func (c *Conn) GetTree(ctx context.Context) (Tree, error) {
	var r Tree
	err := c.Call(ctx, "get_tree", nil, &r)
	return r, err
}

// GetLastAssistantText returns the last assistant reply's text; ok is false
// when there is none.
func (c *Conn) GetLastAssistantText(ctx context.Context) (text string, ok bool, err error) {
	var r struct {
		Text *string `json:"text"`
	}
	err = c.Call(ctx, "get_last_assistant_text", nil, &r)
	if err != nil || r.Text == nil {
		return "", false, err
	}
	return *r.Text, true, nil
}

// SetSessionName names the session.
func (c *Conn) SetSessionName(ctx context.Context, name string) error {
	return c.Call(ctx, "set_session_name", struct {
		Name string `json:"name"`
	}{name}, nil)
}

// GetCommands lists extension commands, prompt templates and skills.
func (c *Conn) GetCommands(ctx context.Context) ([]Command, error) {
	var r struct {
		Commands []Command `json:"commands"`
	}
	err := c.Call(ctx, "get_commands", nil, &r)
	return r.Commands, err
}
