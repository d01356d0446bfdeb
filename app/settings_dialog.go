package app

import (
	"fmt"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

func settingsIcon() fyne.Resource { return theme.SettingsIcon() }

func attachIcon() fyne.Resource { return theme.FileImageIcon() }

func storageURL(path string) (*url.URL, error) {
	return url.Parse(storage.NewFileURI(path).String())
}

// showSettings edits the saved settings. Agent changes apply on the next
// start (or Restart); theme, text size and the cursor apply at once.
func (w *Window) showSettings() {
	agent := widget.NewEntry()
	agent.SetText(w.settings.AgentPath)
	agent.SetPlaceHolder("found automatically")
	args := widget.NewMultiLineEntry()
	args.SetText(strings.Join(w.settings.AgentArgs, "\n"))
	args.SetPlaceHolder("one argument per line, e.g.\n--provider\nlocal")
	args.SetMinRowsVisible(3)
	dir := widget.NewEntry()
	dir.SetText(w.settings.WorkDir)
	dir.SetPlaceHolder("the folder the app was started in")
	themes := widget.NewRadioGroup([]string{ThemeSystem, ThemeLight, ThemeDark}, nil)
	themes.Horizontal = true
	themes.SetSelected(w.settings.Theme)
	sizes := map[string]float64{"Small": 0.9, "Normal": 1, "Large": 1.15, "Larger": 1.3}
	size := widget.NewSelect([]string{"Small", "Normal", "Large", "Larger"}, nil)
	size.SetSelected("Normal")
	for name, scale := range sizes {
		if scale == w.settings.TextScale {
			size.SetSelected(name)
		}
	}
	blink := widget.NewCheck("Blinking cursor", nil)
	blink.SetChecked(w.settings.BlinkCursor)
	items := []*widget.FormItem{
		widget.NewFormItem("Agent", agent),
		widget.NewFormItem("Agent arguments", args),
		widget.NewFormItem("Working folder", dir),
		widget.NewFormItem("Theme", themes),
		widget.NewFormItem("Text size", size),
		widget.NewFormItem("Cursor", blink),
	}
	d := dialog.NewForm("Settings", "Save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		s := w.settings
		s.AgentPath = strings.TrimSpace(agent.Text)
		s.AgentArgs = splitArgs(args.Text)
		s.WorkDir = strings.TrimSpace(dir.Text)
		s.Theme = themes.Selected
		s.TextScale = sizes[size.Selected]
		s.BlinkCursor = blink.Checked
		agentChanged := s.AgentPath != w.settings.AgentPath || strings.Join(s.AgentArgs, "\n") != strings.Join(w.settings.AgentArgs, "\n") || s.WorkDir != w.settings.WorkDir
		w.settings = s
		s.Save(w.app.Preferences())
		w.app.Settings().SetTheme(newAppTheme(s))
		w.prompt.Editor.SetCursorBlink(s.BlinkCursor)
		if agentChanged {
			dialog.ShowInformation("Settings saved", fmt.Sprintf("The agent settings apply the next time the agent starts (Restart, or reopen the app)."), w.win)
		}
	}, w.win)
	d.Resize(fyne.NewSize(560, 460))
	d.Show()
}
