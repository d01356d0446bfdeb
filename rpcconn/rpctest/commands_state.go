package rpctest

import (
	"encoding/json"
	"slices"
	"strings"
)

func (a *agent) cmdGetState(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var m any
	if cm := a.currentModel(); cm != nil {
		m = cm
	}
	st := obj("model", m, "thinkingLevel", a.level, "isStreaming", a.run != nil,
		"isCompacting", a.compactions > 0, "steeringMode", a.steeringMode, "followUpMode", a.followUpMode)
	if a.sess.File != "" {
		st = st.with("sessionFile", a.sess.File)
	}
	st = st.with("sessionId", a.sess.ID)
	if a.sess.Name != "" {
		st = st.with("sessionName", a.sess.Name)
	}
	return append(st, obj("autoCompactionEnabled", a.autoCompaction,
		"messageCount", len(a.sess.messages()),
		"pendingMessageCount", len(a.steering)+len(a.followUp))...), nil
}

func (a *agent) cmdGetMessages(c *command) (any, error) {
	a.holdMessages()
	a.mu.Lock()
	defer a.mu.Unlock()
	msgs := a.sess.messages()
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	return obj("messages", msgs), nil
}

func (a *agent) cmdSetModel(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range a.models {
		if a.models[i].Provider == c.Provider && a.models[i].ID == c.ModelID {
			a.selectModelLocked(i)
			return a.currentModel(), nil
		}
	}
	return nil, errorf("Model not found: %s/%s", c.Provider, c.ModelID)
}

func (a *agent) cmdCycleModel(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.models) < 2 {
		return jsonNull, nil
	}
	a.selectModelLocked((a.model + 1) % len(a.models))
	return obj("model", a.currentModel(), "thinkingLevel", a.level, "isScoped", false), nil
}

func (a *agent) cmdGetAvailableModels(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return obj("models", append([]model{}, a.models...)), nil
}

// selectModelLocked switches model, recording it in the session, and fits
// the thinking level to what the new model supports.
func (a *agent) selectModelLocked(i int) {
	a.model = i
	m := a.currentModel()
	a.sess.append("model_change", "provider", m.Provider, "modelId", m.ID)
	a.setLevelLocked(a.clampLevel(a.preferredLevel))
}

// clampLevel maps a wanted level onto the current model. The older agent
// does as pi 0.73.1's clampThinkingLevel: a known level the model lacks
// becomes the nearest it has, higher first, an unknown one "off"; the
// current one makes any unsupported level "off". --fake-thinking-cap then
// lowers what is left.
func (a *agent) clampLevel(level string) string {
	levels := levelsFor(a.currentModel(), a.opts.Older)
	got := "off"
	if slices.Contains(levels, level) {
		got = level
	} else if i := slices.Index(olderLevels, level); a.opts.Older && i >= 0 {
		got = nearestLevel(levels, i)
	}
	if limit := slices.Index(allLevels, a.opts.ThinkingCap); limit >= 0 && slices.Index(allLevels, got) > limit {
		got = a.opts.ThinkingCap
	}
	return got
}

// olderLevels are the levels pi 0.73.1 knows ("max" is not one).
var olderLevels = allLevels[:len(allLevels)-1]

// nearestLevel is the first of levels at or above olderLevels[i], else the
// first below it.
func nearestLevel(levels []string, i int) string {
	for j := i; j < len(olderLevels); j++ {
		if slices.Contains(levels, olderLevels[j]) {
			return olderLevels[j]
		}
	}
	for j := i - 1; j >= 0; j-- {
		if slices.Contains(levels, olderLevels[j]) {
			return olderLevels[j]
		}
	}
	return "off"
}

func (a *agent) setLevelLocked(level string) {
	if level == a.level {
		return
	}
	a.level = level
	a.sess.append("thinking_level_change", "thinkingLevel", level)
	// pi 0.73.1 and 1.6 both say so (the 0.9.2 reference does not).
	a.emit(obj("type", "thinking_level_changed", "level", level))
}

func (a *agent) cmdSetThinkingLevel(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// The older agent accepts any level and quietly sets "off".
	if !a.opts.Older && !slices.Contains(allLevels, c.Level) {
		return nil, errorf("Invalid thinking level: %s. Valid levels: %s", c.Level, strings.Join(allLevels, ", "))
	}
	a.preferredLevel = c.Level
	a.setLevelLocked(a.clampLevel(c.Level))
	return nil, nil
}

func (a *agent) cmdCycleThinkingLevel(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	levels := levelsFor(a.currentModel(), a.opts.Older)
	if len(levels) < 2 {
		return jsonNull, nil
	}
	next := levels[(slices.Index(levels, a.level)+1)%len(levels)]
	a.preferredLevel = next
	a.setLevelLocked(next)
	return obj("level", next), nil
}

func (a *agent) cmdGetAvailableThinkingLevels(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return obj("levels", levelsFor(a.currentModel(), a.opts.Older)), nil
}

func (a *agent) cmdSetSteeringMode(c *command) (any, error) {
	return a.setQueueMode(c.Mode, &a.steeringMode)
}

func (a *agent) cmdSetFollowUpMode(c *command) (any, error) {
	return a.setQueueMode(c.Mode, &a.followUpMode)
}

func (a *agent) setQueueMode(mode string, into *string) (any, error) {
	if mode != "all" && mode != "one-at-a-time" {
		return nil, errorf("Invalid mode: %s. Valid modes: all, one-at-a-time", mode)
	}
	a.mu.Lock()
	*into = mode
	a.mu.Unlock()
	return nil, nil
}

func (a *agent) cmdSetAutoCompaction(c *command) (any, error) {
	return a.setFlag(c, &a.autoCompaction)
}

func (a *agent) cmdSetAutoRetry(c *command) (any, error) { return a.setFlag(c, &a.autoRetry) }

func (a *agent) setFlag(c *command, into *bool) (any, error) {
	if c.Enabled == nil {
		return nil, errorf("%s needs a boolean \"enabled\"", c.typ())
	}
	a.mu.Lock()
	*into = *c.Enabled
	a.mu.Unlock()
	return nil, nil
}

func (a *agent) cmdAbortRetry(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run != nil && a.run.retryCancel != nil {
		a.run.retryCancel()
	}
	return nil, nil
}
