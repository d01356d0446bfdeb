package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
)

// refusedReason is what a greyed agent command says in the palette and
// the "/" completion: the agent answered, when it was run, that it works
// only in its terminal UI (pi 1.6's /llama).
const refusedReason = "works only in the agent's terminal UI"

// prefRefusedPrefix keys, per agent program and version (agentIdentity),
// the commands that agent refused to run here, so the next start greys
// them before anyone tries.
const prefRefusedPrefix = "agent.refused:"

// agentIdentity names the agent program and its version for what is
// remembered about it. Agents report no version on the wire, so a local
// one is its executable, symbolic links followed, with the file's size and
// time: an upgrade replaces the file. An agent on a host is the host and
// the command.
func (t *Tab) agentIdentity() string {
	if spec, ok := remoteSpec(t.flags); ok {
		return "ssh://" + spec.Host.Name() + " " + orDefault(spec.Agent, "knightcode|pi")
	}
	path := t.started.agent
	if path == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if fi, err := os.Stat(path); err == nil {
		return fmt.Sprintf("%s|%d|%d", path, fi.Size(), fi.ModTime().Unix())
	}
	return path
}

// refusedCommands are the commands agent refused, as remembered.
func refusedCommands(p fyne.Preferences, agent string) []string {
	if agent == "" {
		return nil
	}
	return p.StringList(prefRefusedPrefix + agent)
}

// rememberRefused adds names to what agent refused.
func rememberRefused(p fyne.Preferences, agent string, names []string) {
	if agent == "" {
		return
	}
	known := refusedCommands(p, agent)
	all := slices.Clone(known)
	for _, n := range names {
		if !slices.Contains(all, n) {
			all = append(all, n)
		}
	}
	if len(all) != len(known) {
		slices.Sort(all)
		p.SetStringList(prefRefusedPrefix+agent, all)
	}
}

// learnRefused follows the session learning that commands do not run
// here: it remembers them for this agent and greys them.
func (c *tabCommands) learnRefused(names []string) {
	rememberRefused(c.app.Preferences(), c.agentIdentity(), names)
	c.markRefused()
}

// markRefused greys the agent's commands it is known to refuse, in the
// palette and the "/" completion.
func (c *tabCommands) markRefused() {
	refused := refusedCommands(c.app.Preferences(), c.agentIdentity())
	changed := false
	for i := range c.agentCommands {
		it := &c.agentCommands[i]
		reason := ""
		if slices.Contains(refused, it.Title[1:]) {
			reason = refusedReason
		}
		if it.Unavailable != reason {
			it.Unavailable, changed = reason, true
		}
	}
	if changed {
		c.commandsLoaded(c.agentCommands)
	}
}
