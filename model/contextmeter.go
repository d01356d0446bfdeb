package model

import (
	"fmt"
	"strings"
)

// ContextLevel is how worrying the context's use is.
type ContextLevel int

const (
	ContextFine       ContextLevel = iota // below contextNearlyFullPercent, or unknown
	ContextNearlyFull                     // from contextNearlyFullPercent to full
	ContextOver                           // the conversation no longer fits the window
)

// contextNearlyFullPercent is where the meter turns to the warning colour.
const contextNearlyFullPercent = 85

// ContextSummary is what the status bar says about the context window: how
// many tokens of how many, or in words that the conversation no longer
// fits (a session loaded for a model with a smaller window), never a
// percentage above 100.
func (st Status) ContextSummary() string {
	text, _, _ := st.ContextMeter()
	return text
}

// ContextMeter is the context window's use as the status bar draws it:
// its words, how full the bar is (0 to 1) and its level.
func (st Status) ContextMeter() (text string, fill float64, level ContextLevel) {
	switch {
	case st.ContextPercent < 0:
		return "context unknown", 0, ContextFine
	case st.ContextPercent > 100 || (st.ContextWindow > 0 && st.ContextTokens > st.ContextWindow):
		return fmt.Sprintf("%s tokens: more than this model's %s window", CompactCount(st.ContextTokens), CompactCount(st.ContextWindow)), 1, ContextOver
	}
	text = fmt.Sprintf("%s / %s (%.0f%%)", CompactCount(st.ContextTokens), CompactCount(st.ContextWindow), st.ContextPercent)
	level = ContextFine
	if st.ContextPercent >= contextNearlyFullPercent {
		level = ContextNearlyFull
	}
	return text, st.ContextPercent / 100, level
}

// CompactCount writes token counts as people read them: 950, 12.3k, 200k, 1.5M.
func CompactCount(n int) string {
	f := float64(n)
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 100_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", f/1000), ".0") + "k"
	case n < 1_000_000:
		return fmt.Sprintf("%.0fk", f/1000)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", f/1_000_000), ".0") + "M"
}
