package rpctest

import (
	"fmt"
	"slices"
)

type model struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	API           string    `json:"api"`
	Provider      string    `json:"provider"`
	BaseURL       string    `json:"baseUrl"`
	Reasoning     bool      `json:"reasoning"`
	Input         []string  `json:"input"`
	ContextWindow int       `json:"contextWindow"`
	MaxTokens     int       `json:"maxTokens"`
	Cost          modelCost `json:"cost"`
}

// modelCost is dollars per million tokens.
type modelCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

func (m *model) key() string { return m.Provider + "/" + m.ID }

func (m *model) acceptsImages() bool { return slices.Contains(m.Input, "image") }

var (
	fastModel = model{
		ID: "fast", Name: "Fake Fast", API: "fake-messages", Provider: "fake",
		BaseURL: "http://127.0.0.1:9/fake", Reasoning: false, Input: []string{"text"},
		ContextWindow: 32000, MaxTokens: 4096,
		Cost: modelCost{Input: 0.5, Output: 1.5, CacheRead: 0.05, CacheWrite: 0.6},
	}
	thinkerModel = model{
		ID: "thinker", Name: "Fake Thinker", API: "fake-messages", Provider: "fake",
		BaseURL: "http://127.0.0.1:9/fake", Reasoning: true, Input: []string{"text", "image"},
		ContextWindow: 200000, MaxTokens: 16384,
		Cost: modelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
	}
)

// modelSets are the choices of --fake-model-set. "many" exists for pickers
// that must scroll and filter; "none" for a client's "no model" state.
func modelSets(name string) ([]model, error) {
	switch name {
	case "", "two":
		return []model{fastModel, thinkerModel}, nil
	case "one":
		return []model{fastModel}, nil
	case "none":
		return nil, nil
	case "many":
		ms := []model{fastModel, thinkerModel}
		providers := []string{"acme", "globex", "initech", "umbrella"}
		for i := 1; i <= 40; i++ {
			m := fastModel
			m.Provider = providers[i%len(providers)]
			m.ID = fmt.Sprintf("model-%02d", i)
			m.Name = fmt.Sprintf("%s Model %02d", m.Provider, i)
			if i%3 == 0 {
				m.Name += " with a rather long marketing name (preview)"
			}
			m.Reasoning = i%2 == 0
			if i%4 == 0 {
				m.Input = []string{"text", "image"}
			}
			m.ContextWindow = 8000 * i
			ms = append(ms, m)
		}
		return ms, nil
	}
	return nil, fmt.Errorf("unknown model set %q (want two, one, many or none)", name)
}

// allLevels is every thinking level the 0.9.2 protocol names, in cycle order.
var allLevels = []string{"off", "minimal", "low", "medium", "high", "xhigh", "max"}

// levelsFor lists what the model supports. The older agent has no "max",
// and, as pi 0.73.1 for a model without a thinkingLevelMap, no "xhigh".
func levelsFor(m *model, older bool) []string {
	if m == nil || !m.Reasoning {
		return []string{"off"}
	}
	if older {
		return allLevels[:len(allLevels)-2]
	}
	return allLevels
}
