package app

import (
	"context"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
)

// welcomeKeys are the keys the first screen teaches.
var welcomeKeys = [][2]string{
	{"Enter", "send; Shift+Enter starts a new line"},
	{"Esc", "stop the agent; queued messages come back"},
	{"Ctrl+K", "command palette: everything the window can do"},
	{"Ctrl+O", "open a session"},
	{"Ctrl+F", "find in the conversation"},
	{"Ctrl+T", "a new tab with its own agent; Ctrl+Tab goes to the next"},
	{"Ctrl+Shift+G", "what the agent changed: diffs, revert, stage, commit"},
	{"/", "the agent's commands and prompt templates"},
}

// recentSessions is what the first screen knows of the folder's sessions.
type recentSessions struct {
	loaded bool
	infos  []sessionfiles.Info
}

// modelName is the current model as the picker names it.
func modelName(v model.View) string {
	for _, m := range v.Models {
		if m.Provider == v.ModelProvider && m.ID == v.ModelID {
			return m.Name + " · " + m.Provider
		}
	}
	if v.ModelID == "" {
		return ""
	}
	return v.ModelID + " · " + v.ModelProvider
}

// loadRecent lists the folder's sessions for the first screen, once the
// agent is ready and only while the conversation is empty.
func (p *sessionPanels) loadRecent() {
	if p.controller == nil || len(p.drawn.Items) > 0 {
		return
	}
	list := func(ctx context.Context) ([]sessionfiles.Info, error) {
		infos, _, err := p.controller.Sessions(ctx, false)
		return infos, err
	}
	model.Ask(p.controller, model.CallTimeout, list, func(infos []sessionfiles.Info, err error) {
		// Without a list the screen says there is none: the browser
		// (Ctrl+O) reports what went wrong.
		current := p.session.SessionFile()
		p.recent = recentSessions{loaded: true}
		for _, in := range infos {
			if in.Path != current && in.MessageCount > 0 {
				p.recent.infos = append(p.recent.infos, in)
			}
		}
		// The session did not change, so draw would skip the screen.
		p.updateWelcome(p.drawn)
	})
}

// updateWelcome shows the first screen while the conversation is empty,
// once the agent has loaded what it had: a session opened at start must
// not flash the first screen before its transcript.
func (p *sessionPanels) updateWelcome(v model.View) {
	if len(v.Items) > 0 {
		p.setup.note = "" // said once the conversation starts
	}
	if len(v.Items) > 0 || !p.ready || p.setup.needed(v) {
		if p.welcome.Visible() {
			p.welcome.Hide()
		}
		return
	}
	p.welcome.SetInfo(p.welcomeInfo(v))
	p.welcome.Show()
}

// openRecent opens a session the first screen offered.
func (p *sessionPanels) openRecent(path string) {
	for _, in := range p.recent.infos {
		if in.Path == path {
			p.openSession(in)
			return
		}
	}
}

// welcomeInfo is what the first screen says now.
func (p *sessionPanels) welcomeInfo(v model.View) model.WelcomeInfo {
	info := model.WelcomeInfo{
		Folder:       p.where(false),
		FolderPath:   p.where(true),
		Model:        modelName(v),
		RecentLoaded: p.recent.loaded,
		Recent:       sessionRows(p.recent.infos, ""),
		Keys:         welcomeKeys,
		Note:         p.setup.note,
	}
	if p.controller != nil && v.Status.Connected {
		info.Agent = p.session.AgentName() + " — " + p.started.agent
		if spec, ok := p.controller.Remote(); ok {
			info.Agent = p.session.AgentName() + " on " + spec.Host.Name()
		}
	}
	return info
}
