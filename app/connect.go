package app

import (
	"os"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn"
)

// startOptions is how the agent is started, from w.started.
func (t *Tab) startOptions() rpcconn.Options {
	args := append(append([]string(nil), t.started.args...), t.trust.args()...)
	return rpcconn.Options{Path: t.started.agent, Args: args, Dir: t.started.dir}
}

// restart starts a fresh agent after an exit or a failed start, or after
// the settings changed, with the settings as they are now; the transcript
// and the draft stay.
func (t *Tab) restart() {
	t.banner.Hide()
	t.body.Refresh()
	t.composer.focusEditor()
	if t.controller == nil {
		t.connect()
		return
	}
	if spec, remote := remoteSpec(t.flags); remote {
		t.controller.SetRemoteArgs(append(spec.Args, t.trust.args()...))
	} else if st := resolveStart(t.flags, t.settings, systemLookup, os.Getwd); st.agent != "" {
		t.started = st
		t.controller.SetOptions(t.startOptions())
		t.pointGitAtFolder()
	}
	t.controller.Restart()
}

// connect starts the agent, or asks for one.
func (t *Tab) connect() {
	if spec, ok := remoteSpec(t.flags); ok {
		t.connectRemote(spec)
	} else {
		t.started = resolveStart(t.flags, t.settings, systemLookup, os.Getwd)
		if t.started.agent == "" {
			t.agentSetup.show()
			return
		}
		t.controller = model.NewController(t.session, t, t.startOptions())
	}
	t.pointGitAtFolder()
	t.controller.BeforePrompt = t.beforePrompt
	t.controller.OnReady = func() {
		t.do(func() {
			t.panels.ready = true
			t.modelSetup.ready()
			t.trust.ready()
			// The session may have changed since the last frame: the
			// first screen follows it as it is now, not as last drawn.
			v := t.session.View(&t.drawn)
			t.modelSetup.update(v)
			t.panels.updateWelcome(v)
			t.commands.loadCommands()
			t.panels.loadRecent()
			t.findWorktree()
		})
	}
	t.controller.Start()
}
