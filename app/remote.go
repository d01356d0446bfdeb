package app

import (
	"os"
	"path/filepath"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/widgets/kit"
)

// remoteSpec is how --ssh runs the agent: on the host, in --cwd there,
// with --agent there (else knightcode or pi from a login shell's PATH).
func remoteSpec(f Flags) (remote.Spec, bool) {
	if f.SSH == "" {
		return remote.Spec{}, false
	}
	t, err := remote.ParseTarget(f.SSH) // checked with the flags
	if err != nil {
		return remote.Spec{}, false
	}
	return remote.Spec{Host: remote.Host{Target: t, ConfigFile: f.SSHConfig}, Dir: f.Dir, Agent: f.Agent, Args: f.AgentArgs}, true
}

// remoteStart is what Settings and the first screen say about an agent on
// a host: the values are the command line's, used there as given.
func remoteStart(spec remote.Spec) startInfo {
	host := spec.Host.Name()
	st := startInfo{agent: spec.Agent, dir: spec.Dir, args: spec.Args, flagArgs: len(spec.Args),
		agentSource: "--agent on the command line, run on " + host,
		dirSource:   "--cwd on the command line, a folder on " + host}
	if st.agent == "" {
		st.agentSource = "knightcode, else pi, on a login shell's PATH on " + host
	}
	if st.dir == "" {
		st.dirSource = "your home folder on " + host
	}
	return st
}

// connectRemote starts the agent on the --ssh host.
func (t *Tab) connectRemote(spec remote.Spec) {
	t.started = remoteStart(spec)
	spec.Args = append(spec.Args, t.trust.args()...)
	mirror := cacheDir("remote-sessions", safeName(spec.Host.Name()))
	t.controller = model.NewRemoteController(t.session, t, spec, mirror)
}

// cacheDir is a folder of the app's in the user's cache folder (a
// temporary one where there is none).
func cacheDir(parts ...string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(append([]string{cache, "knightcode-desktop"}, parts...)...)
}

// safeName makes s usable as one file name.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '/' || c == '\\' || c == ':' || c == 0 {
			b[i] = '_'
		}
	}
	return string(b)
}

// where names the working folder in the header and the title: the folder,
// on a host when the agent runs on one.
func (h *tabHost) where(full bool) string {
	dir := h.started.dir
	var spec remote.Spec
	onHost := false
	if h.controller != nil {
		spec, onHost = h.controller.Remote()
	}
	switch {
	case !full && dir != "":
		dir = filepath.Base(dir)
	case full && !onHost:
		dir = kit.DisplayPath(dir) // a host's home is not this one's
	}
	if !onHost {
		return dir
	}
	if dir == "" {
		dir = "~"
	}
	return spec.Host.Name() + ":" + dir
}
