package setup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/agentsetup"
	"knightcode.ai/desktop/widgets/kit"
)

// AgentPanel is what a tab shows when no agent was found: what is missing,
// "Install the agent" (when npm is there: progress, npm's output, Cancel)
// or what to install by hand (when it is not), and "Choose the agent
// executable…". The install itself is the app's Installer, shared by every
// tab that shows this panel.
type AgentPanel struct {
	installer *Installer
	// OnChoose asks for an agent executable.
	OnChoose func()
	// haveNPM is agentsetup.HaveNPM; tests replace it.
	haveNPM func() bool

	root      *fyne.Container
	title     *widget.Label
	explain   *widget.Label
	progress  *widget.ProgressBar
	step      *widget.Label
	problem   *widget.Label
	buttons   *fyne.Container
	install   *widget.Button
	cancel    *widget.Button
	choose    *widget.Button
	recheck   *widget.Button
	output    *widget.Label
	outputBox *fyne.Container
	showOut   *widget.Button
	unwatch   func()
}

// NewAgentPanel builds the panel over the app's installer.
func NewAgentPanel(in *Installer) *AgentPanel {
	p := &AgentPanel{installer: in, haveNPM: agentsetup.HaveNPM}
	p.title = widget.NewLabelWithStyle("No agent found", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	p.title.SizeName = theme.SizeNameHeadingText
	p.explain = widget.NewLabel("")
	p.explain.Wrapping = fyne.TextWrapWord
	p.progress = widget.NewProgressBar()
	p.progress.TextFormatter = func() string { return "" }
	p.step = widget.NewLabel("")
	p.step.Wrapping = fyne.TextWrapWord
	p.step.SizeName = theme.SizeNameCaptionText
	p.problem = widget.NewLabel("")
	p.problem.Wrapping = fyne.TextWrapWord
	p.problem.Importance = widget.DangerImportance
	p.install = widget.NewButtonWithIcon("Install the agent", theme.DownloadIcon(), in.Start)
	p.install.Importance = widget.HighImportance
	p.cancel = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), in.Cancel)
	p.choose = widget.NewButtonWithIcon("Choose the agent executable…", theme.FolderOpenIcon(), func() {
		if p.OnChoose != nil {
			p.OnChoose()
		}
	})
	p.recheck = widget.NewButtonWithIcon("Check again", theme.ViewRefreshIcon(), func() { p.show(in.State()) })
	p.buttons = container.NewHBox()
	p.output = widget.NewLabel("")
	p.output.TextStyle = fyne.TextStyle{Monospace: true}
	p.output.SizeName = theme.SizeNameCaptionText
	p.output.Wrapping = fyne.TextWrapBreak
	scroll := container.NewVScroll(p.output)
	scroll.SetMinSize(fyne.NewSize(0, 160))
	p.outputBox = container.NewStack(scroll)
	p.outputBox.Hide()
	p.showOut = widget.NewButton("Show npm's output", p.toggleOutput)
	p.showOut.Importance = widget.LowImportance
	body := container.NewVBox(p.title, p.explain, p.progress, p.step, p.problem, container.NewCenter(p.buttons),
		container.NewHBox(p.showOut), p.outputBox)
	p.root = container.NewCenter(container.New(&maxWidth{width: 600}, body))
	return p
}

// Object is the panel, to place in the tab.
func (p *AgentPanel) Object() fyne.CanvasObject { return p.root }

// Start shows the install's state now and follows it; Stop no longer
// does. Both run on the UI goroutine.
func (p *AgentPanel) Start() {
	if p.unwatch == nil {
		p.unwatch = p.installer.Watch(p.show)
	}
	p.show(p.installer.State())
}

func (p *AgentPanel) Stop() {
	if p.unwatch != nil {
		p.unwatch()
		p.unwatch = nil
	}
}

func (p *AgentPanel) toggleOutput() {
	if p.outputBox.Visible() {
		p.outputBox.Hide()
		p.showOut.SetText("Show npm's output")
	} else {
		p.outputBox.Show()
		p.showOut.SetText("Hide npm's output")
	}
	p.root.Refresh()
}

// show draws the panel for the install's state.
func (p *AgentPanel) show(s InstallState) {
	r := agentsetup.Current
	dataDir := "the app's data folder"
	if d, err := agentsetup.AgentDir(); err == nil {
		dataDir = kit.DisplayPath(d)
	}
	found := "It looked in Settings, beside this app, on your PATH (knightcode, pi) and in the app's data folder, and found none."
	canInstall := p.haveNPM()
	var buttons []fyne.CanvasObject
	p.problem.Hide()
	switch {
	case s.Running:
		p.title.SetText("Installing the agent")
		p.explain.SetText(fmt.Sprintf("Installing %s (npm %s) and, where this computer's Node.js is older than %s, a Node new enough to run it, into %s. Nothing is installed anywhere else.", r, r.Package, r.MinNode, dataDir))
		buttons = append(buttons, p.cancel)
	case s.Result != nil:
		p.title.SetText("The agent is installed")
		p.explain.SetText(fmt.Sprintf("%s is installed in %s and runs with %s. Starting it…", r, dataDir, s.Result.Node))
	case !canInstall:
		p.title.SetText("No agent found")
		p.explain.SetText("KnightCode Desktop is a window for a coding agent: a command-line program that talks to language models and runs tools in your project. The window starts the agent itself. " + found + "\n\n" +
			"The window can install the current public agent, " + r.String() + " (npm " + r.Package + "), but that needs npm, which is not on this computer. " +
			"Install Node.js with npm (Debian or Ubuntu: sudo apt install nodejs npm; macOS: brew install node; Windows: the installer from nodejs.org), then press Check again. Or choose an agent you already have.")
		buttons = append(buttons, p.recheck, p.choose)
	default:
		p.title.SetText("No agent found")
		p.explain.SetText("KnightCode Desktop is a window for a coding agent: a command-line program that talks to language models and runs tools in your project. The window starts the agent itself. " + found + "\n\n" +
			"Install the agent puts the current public agent, " + r.String() + " (npm " + r.Package + "), and a Node.js new enough to run it into " + dataDir + " with npm: no administrator rights, nothing global, about " + fmt.Sprint(r.Size>>20) + " MB.")
		p.install.SetText("Install the agent")
		if s.Err != nil {
			p.install.SetText("Try again")
		}
		buttons = append(buttons, p.install, p.choose)
	}
	if s.Err != nil && !s.Running {
		p.problem.SetText(installProblem(s.Err))
		p.problem.Show()
	}
	inProgress := s.Running || s.Result != nil
	if inProgress && s.Total > 0 {
		p.progress.SetValue(min(float64(s.Done)/float64(s.Total), 1))
		p.progress.Show()
	} else {
		p.progress.Hide()
	}
	step := s.Step
	if s.Running && s.Total > 0 {
		step = fmt.Sprintf("%s — %d MB of about %d MB", s.Step, s.Done>>20, s.Total>>20)
	}
	p.step.SetText(step)
	p.step.Hidden = !inProgress || step == ""
	p.output.SetText(strings.Join(s.Output, "\n"))
	p.showOut.Hidden = len(s.Output) == 0
	if p.showOut.Hidden {
		p.outputBox.Hide()
	}
	p.buttons.Objects = buttons
	p.buttons.Refresh()
	p.root.Refresh()
}

// installProblem says why an install failed, in words.
func installProblem(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "The install was cancelled. Nothing was changed."
	case errors.Is(err, agentsetup.ErrNoNPM):
		return "npm is not on this computer: install Node.js with npm, then try again."
	}
	return "The agent could not be installed: " + err.Error()
}

// maxWidth lays its objects out one under another, no wider than width.
type maxWidth struct{ width float32 }

func (m *maxWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		ms := o.MinSize()
		s.Width = max(s.Width, min(ms.Width, m.width))
		s.Height += ms.Height
	}
	s.Width = max(s.Width, m.width)
	return s
}

func (m *maxWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}
