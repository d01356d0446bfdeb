package model

import (
	"path/filepath"
	"strings"
)

// agentDisplayName is what messages call the agent binary at path: pi
// (the public twin) by its name, KnightCode by its own, anything else by
// its file name.
func agentDisplayName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	switch lower := strings.ToLower(base); {
	case lower == "pi":
		return "pi"
	case strings.Contains(lower, "knightcode"):
		return "KnightCode"
	case base == "" || base == ".":
		return "the agent"
	}
	return base
}
