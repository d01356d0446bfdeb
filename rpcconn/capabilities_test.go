package rpcconn

import (
	"encoding/json"
	"slices"
	"testing"
)

// pi 0.73.1 cannot be asked for a model's levels: the fallback follows its
// rule, read from the model as get_available_models gives it.
func TestFallbackThinkingLevelsFollowThinkingLevelMap(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  []string
	}{
		{`{"id":"plain","reasoning":false}`, []string{"off"}},
		{`{"id":"r","reasoning":true}`, []string{"off", "minimal", "low", "medium", "high"}},
		{`{"id":"x","reasoning":true,"thinkingLevelMap":{"xhigh":"max"}}`, []string{"off", "minimal", "low", "medium", "high", "xhigh"}},
		{`{"id":"n","reasoning":true,"thinkingLevelMap":{"minimal":null,"xhigh":null}}`, []string{"off", "low", "medium", "high"}},
	} {
		var m Model
		if err := json.Unmarshal([]byte(tc.model), &m); err != nil {
			t.Fatal(err)
		}
		if got := fallbackThinkingLevels(&m); !slices.Equal(got, tc.want) {
			t.Errorf("%s: levels %v, want %v", tc.model, got, tc.want)
		}
	}
	if got := fallbackThinkingLevels(nil); !slices.Equal(got, []string{"off"}) {
		t.Errorf("no model: %v", got)
	}
}
