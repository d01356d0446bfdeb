package app

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestSettingsBlinkingCursor(t *testing.T) {
	a := test.NewTempApp(t)
	if !LoadSettings(a.Preferences()).BlinkCursor {
		t.Fatal("the blinking cursor is off by default")
	}
	s := LoadSettings(a.Preferences())
	s.BlinkCursor = false
	s.Save(a.Preferences())
	if LoadSettings(a.Preferences()).BlinkCursor {
		t.Fatal("a saved \"Blinking cursor\" off reads back on")
	}
}
