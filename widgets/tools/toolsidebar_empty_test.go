package tools

import (
	"testing"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/model"
)

// An empty sidebar measures no card, so it never asks for the monospace
// font (each text style costs Fyne a parse of its fonts and of the 4 MB
// emoji font); the first card does, and is measured with it.
func TestEmptySidebarMeasuresNoCard(t *testing.T) {
	s, w := showSidebar(t, nil)
	s.SetCards(nil)
	s.Refresh()
	w.Resize(fyne.NewSize(400, 600))
	if s.haveM {
		t.Fatal("the empty sidebar computed the cards' metrics")
	}
	s.SetCards([]model.ToolCard{{ID: "a", Name: "bash", Status: model.ToolRunning, Revision: 1}})
	if !s.haveM {
		t.Fatal("the first card was measured without the cards' metrics")
	}
	if h := s.list.total(); h <= 0 {
		t.Fatalf("the first card is %v high", h)
	}
}
