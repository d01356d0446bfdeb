package app

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/widgets/kit"
)

func settingsIcon() fyne.Resource { return theme.SettingsIcon() }

func attachIcon() fyne.Resource { return theme.FileImageIcon() }

func storageURL(path string) (*url.URL, error) {
	return url.Parse(storage.NewFileURI(path).String())
}

// named is a value a settings choice offers under a name.
type named[T comparable] struct {
	name  string
	value T
}

// Text sizes the settings offer.
var textSizes = []named[float64]{{"Small", 0.9}, {"Normal", 1}, {"Large", 1.15}, {"Larger", 1.3}}

// namedChoice offers options by name, showing the one worth current, else
// fallback's.
func namedChoice[T comparable](keys *kit.DialogKeys, options []named[T], current T, fallback string) *kit.Choice {
	var names []string
	for _, o := range options {
		names = append(names, o.name)
	}
	c := kit.NewChoice(names, keys)
	c.SetSelected(fallback)
	for _, o := range options {
		if o.value == current {
			c.SetSelected(o.name)
		}
	}
	return c
}

// chosen is the value of the option c shows, or else.
func chosen[T comparable](c *kit.Choice, options []named[T], otherwise T) T {
	for _, o := range options {
		if o.name == c.Selected() {
			return o.value
		}
	}
	return otherwise
}

// showSettings edits the saved settings. Under each agent field it says
// what is in use now and where that came from. Agent changes apply when the
// agent starts next, which Save offers to do at once; theme, text size and
// the cursor apply at once. Enter saves (Ctrl+Enter in the arguments), Esc
// cancels, the arrows pick a theme or size.
func (t *Tab) showSettings() {
	k := newKeyDialog(t.win, t.modals)
	agent := kit.NewDialogEntry(k.Keys())
	agent.SetText(t.settings.AgentPath)
	agent.SetPlaceHolder("empty: found automatically")
	args := kit.NewDialogMultiLineEntry(k.Keys())
	args.SetText(strings.Join(t.settings.AgentArgs, "\n"))
	args.SetPlaceHolder("one argument per line, e.g.\n--provider\nlocal")
	args.SetMinRowsVisible(3)
	dir := kit.NewDialogEntry(k.Keys())
	dir.SetText(t.settings.WorkDir)
	dir.SetPlaceHolder("empty: the folder the app was started in")
	themes := kit.NewChoice([]string{ThemeSystem, ThemeLight, ThemeDark}, k.Keys())
	themes.SetSelected(t.settings.Theme)
	size := namedChoice(k.Keys(), textSizes, t.settings.TextScale, "Normal")
	blink := kit.NewDialogCheck("Blinking cursor", k.Keys())
	blink.SetChecked(t.settings.BlinkCursor)
	keep := namedChoice(k.Keys(), checkpointDayChoices, t.settings.CheckpointDays, "30 days")
	worktrees := kit.NewDialogEntry(k.Keys())
	worktrees.SetText(t.settings.WorktreeDir)
	worktrees.SetPlaceHolder("empty: beside the repository")
	st := t.started
	items := []*widget.FormItem{
		widget.NewFormItem("Agent", container.NewVBox(agent, inUseLabel(st.agentInUse()))),
		widget.NewFormItem("Agent arguments", container.NewVBox(args, inUseLabel(st.argsInUse()))),
		widget.NewFormItem("Working folder", container.NewVBox(dir, inUseLabel(st.dirInUse()))),
		widget.NewFormItem("Theme", themes),
		widget.NewFormItem("Text size", size),
		widget.NewFormItem("Cursor", blink),
		widget.NewFormItem("Checkpoints", container.NewVBox(keep,
			inUseLabel("of a closed session are deleted this long after its last message"))),
		widget.NewFormItem("Worktrees", container.NewVBox(worktrees,
			inUseLabel("where \"New tab in a worktree…\" makes them"))),
	}
	k.focus = agent
	save := func() {
		s := t.settings
		s.AgentPath = strings.TrimSpace(agent.Text)
		s.AgentArgs = splitArgs(args.Text)
		s.WorkDir = strings.TrimSpace(dir.Text)
		s.Theme = themes.Selected()
		s.TextScale = chosen(size, textSizes, s.TextScale)
		s.BlinkCursor = blink.Checked
		s.WorktreeDir = strings.TrimSpace(worktrees.Text)
		s.CheckpointDays = chosen(keep, checkpointDayChoices, s.CheckpointDays)
		t.git.setKeepDays(s.CheckpointDays)
		agentChanged := s.AgentPath != t.settings.AgentPath || strings.Join(s.AgentArgs, "\n") != strings.Join(t.settings.AgentArgs, "\n") || s.WorkDir != t.settings.WorkDir
		t.settings = s
		s.Save(t.app.Preferences())
		t.app.Settings().SetTheme(newAppTheme(s))
		t.composer.prompt.Editor.SetCursorBlink(s.BlinkCursor)
		if agentChanged {
			t.ask("Settings saved", "The agent settings apply when the agent starts next. Restart it now? The conversation and your draft stay.",
				dialogAction{label: "Later", isCancel: true},
				dialogAction{label: "Restart now", icon: theme.ViewRefreshIcon(), isDefault: true, run: t.restart})
		}
	}
	modelsPage, askAgent := t.modelSetup.settingsPage()
	modelsTab := container.NewTabItem("Models", modelsPage)
	pages := container.NewAppTabs(container.NewTabItem("General", widget.NewForm(items...)), modelsTab,
		container.NewTabItem("Trusted folders", t.trustPage()))
	pages.OnSelected = func(it *container.TabItem) {
		if it == modelsTab {
			askAgent()
		}
	}
	k.build("Settings", pages,
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Save", icon: theme.ConfirmIcon(), isDefault: true, run: save})
	k.Resize(fyne.NewSize(640, 560))
	k.Show()
}

// inUseLabel is the small print under a settings field saying what is in
// use now.
func inUseLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.SizeName = theme.SizeNameCaptionText
	l.Importance = widget.LowImportance
	return l
}
