package app

import (
	"context"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"knightcode.ai/desktop/app/setup"
	"knightcode.ai/desktop/model"
)

// modelSetup is the tab's surface for connecting a model: the models panel
// as the first screen while the agent has no model, the same panel in a
// dialog from Settings and the palette, and the model to select once the
// agent has restarted to read what changed. It is the panels' host.
type modelSetup struct {
	host *tabHost
	// restart starts the agent again, to read what changed; loaded says
	// whether the first agent has loaded the session.
	restart func()
	loaded  func() bool
	first   *setup.ModelsPanel
	box     *fyne.Container
	// pending is the model to select once the agent is back; note what
	// the first screen says of it once it is.
	pending *modelChoice
	note    string
}

type modelChoice struct{ provider, id string }

func newModelSetup(host *tabHost, restart func(), loaded func() bool) *modelSetup {
	m := &modelSetup{host: host, restart: restart, loaded: loaded}
	m.first = setup.NewModelsPanel(m, nil)
	m.first.SetLead("The agent is running, but it has no model to talk to yet. Connect one to start: a model server on this computer, or a cloud provider's API key.")
	m.box = container.NewStack(container.NewVScroll(container.NewPadded(m.first.Object())))
	m.box.Hide()
	return m
}

// object is the first-screen panel, to stack over the conversation.
func (m *modelSetup) object() fyne.CanvasObject { return m.box }

// needed reports whether the first screen is the models panel: the agent
// is up and loaded, the conversation empty, and the agent lists no model
// (pi without a model answers with none and "unknown" as its model).
func (m *modelSetup) needed(v model.View) bool {
	return m.loaded() && v.Status.Connected && len(v.Models) == 0 && len(v.Items) == 0
}

// update shows or hides the first-screen panel for the view; it looks for
// model servers each time it comes up.
func (m *modelSetup) update(v model.View) {
	switch need := m.needed(v); {
	case need && !m.box.Visible():
		m.box.Show()
		m.first.Start()
	case !need && m.box.Visible():
		m.box.Hide()
	}
}

// ready runs when the agent has loaded: a model connected before the
// restart is selected now.
func (m *modelSetup) ready() {
	p := m.pending
	m.pending = nil
	if p == nil || m.host.controller == nil {
		return
	}
	m.host.controller.SelectModel(p.provider, p.id)
	m.note = "Connected " + p.id + " (" + p.provider + "): ready. Type a message below to start."
}

// openDialog shows the panel in a dialog of its own (Settings › Models,
// the palette).
func (m *modelSetup) openDialog() {
	t := m.host
	k := newKeyDialog(t.win, t.modals)
	panel := setup.NewModelsPanel(m, k.Keys())
	scroll := container.NewVScroll(panel.Object())
	k.build("Models", scroll, dialogAction{label: "Close", isCancel: true, isDefault: true})
	k.Resize(fyne.NewSize(720, 600))
	k.Show()
	panel.Start()
}

// Do implements setup.ModelsHost.
func (m *modelSetup) Do(f func()) { m.host.do(f) }

// Go implements setup.ModelsHost: the work is the tab's, cancelled and
// waited for when it closes.
func (m *modelSetup) Go(f func(ctx context.Context)) bool { return m.host.bg.Go(f) }

// Agent implements setup.ModelsHost.
func (m *modelSetup) Agent() (setup.AgentTarget, bool) {
	c := m.host.controller
	if c == nil {
		return setup.AgentTarget{}, false
	}
	if spec, ok := c.Remote(); ok {
		return setup.AgentTarget{Remote: spec.Host.Name()}, true
	}
	opts := c.Options()
	return setup.AgentTarget{Path: opts.Path, Dir: opts.Dir, Env: append(os.Environ(), opts.Env...)}, true
}

// UseModel implements setup.ModelsHost.
func (m *modelSetup) UseModel(provider, id string) {
	m.pending = &modelChoice{provider, id}
	m.restart()
}

// Reload implements setup.ModelsHost.
func (m *modelSetup) Reload() { m.restart() }
