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
	{"/", "the agent's commands and prompt templates"},
}

// recentSessions is what the first screen knows of the folder's sessions.
type recentSessions struct {
	loaded bool
	infos  []sessionfiles.Info
}

// loadRecent lists the folder's sessions for the first screen, once the
// agent is ready and only while the conversation is empty.
func (w *Tab) loadRecent() {
	if w.controller == nil || len(w.drawn.Items) > 0 {
		return
	}
	list := func(ctx context.Context) ([]sessionfiles.Info, error) {
		infos, _, err := w.controller.Sessions(ctx, false)
		return infos, err
	}
	model.Ask(w.controller, model.CallTimeout, list, func(infos []sessionfiles.Info, err error) {
		// Without a list the screen says there is none: the browser
		// (Ctrl+O) reports what went wrong.
		current := w.session.SessionFile()
		w.recent = recentSessions{loaded: true}
		for _, in := range infos {
			if in.Path != current && in.MessageCount > 0 {
				w.recent.infos = append(w.recent.infos, in)
			}
		}
		// The session did not change, so draw would skip the screen.
		w.updateWelcome(w.drawn)
	})
}

// updateWelcome shows the first screen while the conversation is empty,
// once the agent has loaded what it had: a session opened at start must
// not flash the first screen before its transcript.
func (w *Tab) updateWelcome(v model.View) {
	if len(v.Items) > 0 {
		w.modelSetup.note = "" // said once the conversation starts
	}
	if len(v.Items) > 0 || !w.ready || w.modelSetup.needed(v) {
		if w.welcome.Visible() {
			w.welcome.Hide()
		}
		return
	}
	w.welcome.SetInfo(w.welcomeInfo(v))
	w.welcome.Show()
}

// openRecent opens a session the first screen offered.
func (w *Tab) openRecent(path string) {
	for _, in := range w.recent.infos {
		if in.Path == path {
			w.openSession(in)
			return
		}
	}
}

// welcomeInfo is what the first screen says now.
func (w *Tab) welcomeInfo(v model.View) model.WelcomeInfo {
	info := model.WelcomeInfo{
		Folder:       w.where(false),
		FolderPath:   w.where(true),
		Model:        modelName(v),
		RecentLoaded: w.recent.loaded,
		Recent:       sessionRows(w.recent.infos, ""),
		Keys:         welcomeKeys,
		Note:         w.modelSetup.note,
	}
	if w.controller != nil && v.Status.Connected {
		info.Agent = w.session.AgentName() + " — " + w.started.agent
		if spec, ok := w.controller.Remote(); ok {
			info.Agent = w.session.AgentName() + " on " + spec.Host.Name()
		}
	}
	return info
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
