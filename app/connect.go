package app

import (
	"os"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn"
)

// startOptions is how the agent is started, from w.started.
func (w *Tab) startOptions() rpcconn.Options {
	args := append(append([]string(nil), w.started.args...), w.trust.args()...)
	return rpcconn.Options{Path: w.started.agent, Args: args, Dir: w.started.dir}
}

// restart starts a fresh agent after an exit or a failed start, or after
// the settings changed, with the settings as they are now; the transcript
// and the draft stay.
func (w *Tab) restart() {
	w.banner.Hide()
	w.body.Refresh()
	w.composer.focusEditor()
	if w.controller == nil {
		w.connect()
		return
	}
	if spec, remote := remoteSpec(w.flags); remote {
		w.controller.SetRemoteArgs(append(spec.Args, w.trust.args()...))
	} else if st := resolveStart(w.flags, w.settings, systemLookup, os.Getwd); st.agent != "" {
		w.started = st
		w.controller.SetOptions(w.startOptions())
	}
	w.controller.Restart()
}

// connect starts the agent, or asks for one.
func (w *Tab) connect() {
	if spec, ok := remoteSpec(w.flags); ok {
		w.connectRemote(spec)
	} else {
		w.started = resolveStart(w.flags, w.settings, systemLookup, os.Getwd)
		if w.started.agent == "" {
			w.agentSetup.show()
			return
		}
		w.controller = model.NewController(w.session, w, w.startOptions())
	}
	w.controller.OnReady = func() {
		w.do(func() {
			w.panels.ready = true
			w.modelSetup.ready()
			w.trust.ready()
			// The session may have changed since the last frame: the
			// first screen follows it as it is now, not as last drawn.
			v := w.session.View(&w.drawn)
			w.modelSetup.update(v)
			w.panels.updateWelcome(v)
			w.commands.loadCommands()
			w.panels.loadRecent()
		})
	}
	w.controller.Start()
}
