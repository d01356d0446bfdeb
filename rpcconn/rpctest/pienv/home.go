package pienv

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

const (
	// Provider is the name of the local model provider in models.json.
	Provider = "local"
	// ReasonerModel supports thinking and images; PlainModel supports
	// neither, so thinking levels collapse to "off".
	ReasonerModel = "local-reasoner"
	PlainModel    = "local-plain"
	// KeyEnv is the variable models.json names as the provider's API key.
	// pi refuses to call a provider without a key; llmserver ignores it.
	KeyEnv   = "LOCAL_LLM_KEY"
	keyValue = "llmserver-test-key"
)

type modelCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

type modelEntry struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	Reasoning     bool      `json:"reasoning"`
	Input         []string  `json:"input"`
	ContextWindow int       `json:"contextWindow"`
	MaxTokens     int       `json:"maxTokens"`
	Cost          modelCost `json:"cost"`
}

type providerEntry struct {
	BaseURL string         `json:"baseUrl"`
	API     string         `json:"api"`
	APIKey  string         `json:"apiKey"`
	Compat  map[string]any `json:"compat"`
	Models  []modelEntry   `json:"models"`
}

// modelsJSON describes the local provider. The compat switches match what
// llmserver speaks: a system role instead of developer, no store field,
// usage in the stream, and max_tokens rather than max_completion_tokens.
func modelsJSON(baseURL string) any {
	cost := modelCost{Input: 1, Output: 2}
	return map[string]any{"providers": map[string]providerEntry{
		Provider: {
			BaseURL: baseURL,
			API:     "openai-completions",
			APIKey:  KeyEnv,
			Compat: map[string]any{
				"supportsDeveloperRole":    false,
				"supportsStore":            false,
				"supportsUsageInStreaming": true,
				"maxTokensField":           "max_tokens",
			},
			Models: []modelEntry{
				{ID: ReasonerModel, Name: "Local Reasoner", Reasoning: true, Input: []string{"text", "image"},
					ContextWindow: 32000, MaxTokens: 4096, Cost: cost},
				{ID: PlainModel, Name: "Local Plain", Reasoning: false, Input: []string{"text"},
					ContextWindow: 32000, MaxTokens: 4096, Cost: cost},
			},
		},
	}}
}

// baseSettings turns off what would reach the network if a test ever ran pi
// interactively (install telemetry; update checks are off through
// PI_OFFLINE) and the startup banner.
func baseSettings() map[string]any {
	return map[string]any{
		"enableInstallTelemetry": false,
		"quietStartup":           true,
	}
}

// writeAgentDir fills HOME/.pi/agent, the only place pi reads global
// configuration from.
func writeAgentDir(agentDir, baseURL string, settings map[string]any) error {
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		return fmt.Errorf("pienv: %w", err)
	}
	merged := baseSettings()
	for k, v := range settings {
		merged[k] = v
	}
	for name, v := range map[string]any{"models.json": modelsJSON(baseURL), "settings.json": merged} {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("pienv: %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(agentDir, name), append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("pienv: %w", err)
		}
	}
	return nil
}
