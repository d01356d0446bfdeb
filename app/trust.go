package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/agentfiles"
	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/widgets/kit"
)

// Trust decisions are kept per folder ("host:folder" for one on an SSH
// host) in the app's preferences, shared by every tab.
const prefTrust = "trust.folders"

const (
	trusted  = "trusted"
	declined = "declined"
)

// trustStore reads and writes the decisions. Fyne's preferences are safe
// from any goroutine; the lock keeps read-modify-write whole.
type trustStore struct {
	prefs fyne.Preferences
	mu    sync.Mutex
	// approves are the agents seen to offer --approve, by program (or
	// host and program), for this run of the app.
	approves map[string]bool
}

// offersApprove says whether the agent was seen to offer --approve.
func (s *trustStore) offersApprove(agent string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.approves[agent]
}

func (s *trustStore) sawApprove(agent string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.approves == nil {
		s.approves = map[string]bool{}
	}
	s.approves[agent] = true
}

func (s *trustStore) all() map[string]string {
	m := map[string]string{}
	json.Unmarshal([]byte(s.prefs.String(prefTrust)), &m)
	return m
}

func (s *trustStore) get(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all()[key]
}

func (s *trustStore) set(key, decision string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.all()
	if decision == "" {
		delete(m, key)
	} else {
		m[key] = decision
	}
	b, _ := json.Marshal(m)
	s.prefs.SetString(prefTrust, string(b))
}

// folders are the folders decided on, sorted, with their decisions.
func (s *trustStore) folders() ([]string, map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.all()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, m
}

// folderTrust is the tab's surface for its folder's own agent files: an
// agent that can be told to trust them (pi 1.6's --approve) ignores them
// in RPC mode until it is, without a word. Once per folder, before the
// first prompt, the tab asks; the answer is kept, Settings › Trusted
// folders takes it back, and a trusted folder's agent starts with
// --approve.
type folderTrust struct {
	tab *Tab
	// checked: this tab has looked at its folder already.
	checked bool
}

func newFolderTrust(t *Tab) *folderTrust { return &folderTrust{tab: t} }

// keys name the tab's folder and its agent, for the decisions and for
// what the agent was seen to offer: "host:…" for an agent on an SSH host.
func (f *folderTrust) keys() (folder, agent string) {
	t := f.tab
	if spec, ok := remoteSpec(t.flags); ok {
		h := spec.Host.Name()
		return h + ":" + t.started.dir, h + ":" + spec.Agent
	}
	return t.started.dir, t.started.agent
}

// args are what the agent starts with beyond its own: --approve in a
// trusted folder, for an agent seen to offer it.
func (f *folderTrust) args() []string {
	folder, agent := f.keys()
	store := f.tab.shell.trust
	if folder != "" && store.get(folder) == trusted && store.offersApprove(agent) {
		return []string{"--approve"}
	}
	return nil
}

// ready runs once the agent is loaded: the first time, it looks at the
// folder's agent files and the agent's options, off the UI goroutine, and
// asks when there is something to trust and nothing decided. A trusted
// folder whose agent was started without --approve (it was not known to
// offer it yet) is restarted with it.
func (f *folderTrust) ready() {
	t := f.tab
	if f.checked || t.controller == nil {
		return
	}
	f.checked = true
	key, agentKey := f.keys()
	decision := t.shell.trust.get(key)
	if decision == declined {
		return
	}
	spec, onHost := t.controller.Remote()
	started := t.controller.Options()
	t.bg.Go(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		var found []agentfiles.Found
		var help string
		var err error
		if onHost {
			found, err = agentfiles.Scan(spec.Dir, hostLister(ctx, spec.Host))
			if err == nil && len(found) > 0 {
				help, err = spec.Help(ctx)
			}
		} else {
			found, err = agentfiles.Scan(filepath.ToSlash(started.Dir), agentfiles.LocalLister)
			if err == nil && len(found) > 0 {
				help, err = agentHelp(ctx, started.Path, started.Env)
			}
		}
		if err != nil || len(found) == 0 || !agentfiles.SupportsApprove(help) {
			return
		}
		t.do(func() {
			if t.closed {
				return
			}
			t.shell.trust.sawApprove(agentKey)
			switch decision {
			case trusted:
				if !containsArg(t.controller.Options().Args, "--approve") {
					t.restart()
				}
			case "":
				f.ask(key, found)
			}
		})
	})
}

// ask puts the question: trust this folder's agent files, or not.
func (f *folderTrust) ask(key string, found []agentfiles.Found) {
	t := f.tab
	var lines []string
	for _, fd := range found {
		for _, l := range fd.Lines() {
			lines = append(lines, "•  "+l+"   ("+fd.Root+")")
		}
	}
	text := kit.DisplayPath(key) + " has agent files of its own. The agent leaves them out until you trust the folder:\n\n" +
		strings.Join(lines, "\n") + "\n\n" +
		"Extensions are programs: trusted, they run on this computer with everything you may do. " +
		"Trust the folder only if you know where its files come from. The answer is kept for this folder; Settings › Trusted folders takes it back."
	t.ask("Trust this folder's agent files?", text,
		dialogAction{label: "Don't trust", isCancel: true, run: func() { t.shell.trust.set(key, declined) }},
		dialogAction{label: "Trust and restart", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			t.shell.trust.set(key, trusted)
			t.restart()
		}})
}

// hostLister lists a folder on an SSH host.
func hostLister(ctx context.Context, h remote.Host) agentfiles.Lister {
	return func(dir string) ([]agentfiles.Entry, error) {
		_, files, err := h.ReadDir(ctx, dir)
		if err != nil {
			if re, ok := err.(*remote.Error); ok && re.Kind == remote.FolderMissing {
				return nil, os.ErrNotExist
			}
			return nil, err
		}
		out := make([]agentfiles.Entry, len(files))
		for i, f := range files {
			out[i] = agentfiles.Entry{Name: f.Name(), Dir: f.Dir}
		}
		return out, nil
	}
}

// agentHelp runs a local agent with --help, offline, in its environment.
func agentHelp(ctx context.Context, agent string, env []string) (string, error) {
	cmd := exec.CommandContext(ctx, agent, "--help")
	cmd.Env = append(append(os.Environ(), env...), "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		return "", fmt.Errorf("%s --help: %w", agent, err)
	}
	return string(out), nil
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// trustPage is Settings › Trusted folders: each folder decided on, trusted
// or not, with Forget, which takes the answer back (the folder is asked
// about again when a tab next starts there).
func (t *Tab) trustPage() fyne.CanvasObject {
	box := container.NewVBox()
	var fill func()
	fill = func() {
		keys, decisions := t.shell.trust.folders()
		box.Objects = nil
		if len(keys) == 0 {
			box.Add(factLabel("No folder decided on yet. When a folder has agent files of its own (.pi/, .knightcode/agent/) and the agent can be told to trust them, the window asks once."))
		}
		for _, k := range keys {
			state := "trusted: the agent starts there with --approve"
			if decisions[k] == declined {
				state = "not trusted: its agent files are left out"
			}
			name := widget.NewLabelWithStyle(kit.DisplayPath(k), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			name.Truncation = fyne.TextTruncateEllipsis
			key := k
			forget := widget.NewButtonWithIcon("Forget", theme.DeleteIcon(), func() {
				t.shell.trust.set(key, "")
				fill()
			})
			box.Add(container.NewBorder(nil, nil, nil, forget, container.NewVBox(name, factLabel(state))))
		}
		box.Refresh()
	}
	fill()
	return container.NewVScroll(box)
}
