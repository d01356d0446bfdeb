package rpcconn

import (
	"context"
	"errors"
	"sort"
	"sync"
)

// Capabilities is what the connected agent is known to support, learned
// without asking the user anything.
type Capabilities struct {
	// Missing are the commands the agent answered "Unknown command" to.
	Missing []string
	// SettledEvent is true when the agent ends runs with agent_settled. An
	// agent without it is settled at agent_end with willRetry false (see
	// RunTracker).
	SettledEvent bool
	// Probed is true once the start-up probe has been answered.
	Probed bool
}

// Supports reports whether command is not known to be missing.
func (c Capabilities) Supports(command string) bool {
	for _, m := range c.Missing {
		if m == command {
			return false
		}
	}
	return true
}

type capabilities struct {
	mu      sync.Mutex
	absent  map[string]bool
	settled bool
	probed  bool
}

func (c *capabilities) markMissing(command string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.absent == nil {
		c.absent = map[string]bool{}
	}
	c.absent[command] = true
}

func (c *capabilities) missing(command string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.absent[command]
}

func (c *capabilities) sawSettled() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.settled = true
}

func (c *capabilities) snapshot() Capabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Capabilities{SettledEvent: c.settled, Probed: c.probed}
	for m := range c.absent {
		s.Missing = append(s.Missing, m)
	}
	sort.Strings(s.Missing)
	return s
}

// Capabilities returns what is known so far about the agent.
func (c *Conn) Capabilities() Capabilities { return c.caps.snapshot() }

// probeCapabilities asks for the thinking levels, a command that arrived in
// the same protocol generation as agent_settled: an agent that knows it also
// settles runs explicitly.
func (c *Conn) probeCapabilities() {
	_, err := c.roundTrip(context.Background(), "get_available_thinking_levels", nil, nil)
	var exitErr *ExitError
	if errors.As(err, &exitErr) || errors.Is(err, ErrClosed) {
		return
	}
	c.caps.mu.Lock()
	defer c.caps.mu.Unlock()
	c.caps.probed = true
	if err == nil {
		c.caps.settled = true
	}
}

// ThinkingLevels for a model when get_available_thinking_levels is missing:
// what pi 0.73.1 takes (getSupportedThinkingLevels): off only without
// reasoning; else off to high, less the levels the model's
// thinkingLevelMap maps to null, and xhigh only when the map names it.
func fallbackThinkingLevels(m *Model) []string {
	if m == nil || !m.Reasoning {
		return []string{"off"}
	}
	var levels []string
	for _, l := range []string{"off", "minimal", "low", "medium", "high", "xhigh"} {
		mapped, named := m.ThinkingLevelMap[l]
		if named && mapped == nil || l == "xhigh" && !named {
			continue
		}
		levels = append(levels, l)
	}
	return levels
}
