package setup

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/agentsetup"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/modelsetup"
)

// uiQueue stands in for the UI goroutine: work handed over with do runs
// when the test drains it, on the test's goroutine.
type uiQueue struct {
	mu   sync.Mutex
	work []func()
}

func (q *uiQueue) do(f func()) {
	q.mu.Lock()
	q.work = append(q.work, f)
	q.mu.Unlock()
}

func (q *uiQueue) drain() {
	for {
		q.mu.Lock()
		work := q.work
		q.work = nil
		q.mu.Unlock()
		if len(work) == 0 {
			return
		}
		for _, f := range work {
			f()
		}
	}
}

// labels are the texts of the visible labels under o.
func labels(o fyne.CanvasObject) string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, "["+x.Text+"]")
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			r := test.WidgetRenderer(x)
			for _, c := range r.Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return strings.Join(out, "\n")
}

func TestInstallerReportsProgressAndTheResult(t *testing.T) {
	test.NewTempApp(t)
	q := &uiQueue{}
	in := NewInstaller(q.do)
	release := make(chan struct{})
	in.install = func(ctx context.Context, o agentsetup.Options) (agentsetup.Result, error) {
		o.Progress(agentsetup.Progress{Line: "Installing pi 1.6.0 with Node 22 into /data/agent"})
		o.Progress(agentsetup.Progress{Line: "added 124 packages in 24s"})
		o.Progress(agentsetup.Progress{Done: 100 << 20, Total: 294 << 20})
		<-release
		return agentsetup.Result{Launcher: "/data/agent/bin/pi", Version: "1.6.0", Node: "Node 22"}, nil
	}
	var seen []InstallState
	in.Watch(func(s InstallState) { seen = append(seen, s) })
	in.Start()
	in.Start() // a second press while it runs starts nothing
	testsupport.Eventually(t, "progress", func() bool { return in.State().Done == 100<<20 })
	q.drain()
	s := in.State()
	if !s.Running || s.Step != "Installing pi 1.6.0 with Node 22 into /data/agent" || len(s.Output) != 2 {
		t.Fatalf("while running: %+v", s)
	}
	close(release)
	in.Close()
	q.drain()
	last := seen[len(seen)-1]
	if last.Running || last.Result == nil || last.Result.Launcher != "/data/agent/bin/pi" || last.Done != last.Total {
		t.Fatalf("last state %+v", last)
	}
}

func TestInstallerCancel(t *testing.T) {
	test.NewTempApp(t)
	q := &uiQueue{}
	in := NewInstaller(q.do)
	started := make(chan struct{})
	in.install = func(ctx context.Context, o agentsetup.Options) (agentsetup.Result, error) {
		close(started)
		<-ctx.Done()
		return agentsetup.Result{}, ctx.Err()
	}
	in.Start()
	<-started
	in.Close() // cancels and waits
	if s := in.State(); s.Running || !errors.Is(s.Err, context.Canceled) {
		t.Fatalf("after cancel: %+v", s)
	}
}

func TestAgentPanelSaysWhatToDo(t *testing.T) {
	test.NewTempApp(t)
	q := &uiQueue{}
	in := NewInstaller(q.do)
	p := NewAgentPanel(in)
	p.haveNPM = func() bool { return false }
	p.Start()
	text := labels(p.Object())
	for _, want := range []string{"No agent found", "needs npm, which is not on this computer", "sudo apt install nodejs npm", "[Check again]", "[Choose the agent executable…]"} {
		if !strings.Contains(text, want) {
			t.Errorf("without npm the panel lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "[Install the agent]") {
		t.Error("Install is offered without npm")
	}

	p.haveNPM = func() bool { return true }
	fail := make(chan struct{})
	in.install = func(ctx context.Context, o agentsetup.Options) (agentsetup.Result, error) {
		o.Progress(agentsetup.Progress{Line: "Installing pi 1.6.0"})
		o.Progress(agentsetup.Progress{Line: "npm error code ENOTFOUND"})
		<-fail
		return agentsetup.Result{}, errors.New("npm could not install it; Most likely the npm registry could not be reached.")
	}
	p.show(in.State())
	text = labels(p.Object())
	if !strings.Contains(text, "[Install the agent]") || !strings.Contains(text, agentsetup.Current.Package) {
		t.Fatalf("with npm:\n%s", text)
	}
	test.Tap(p.install)
	testsupport.Eventually(t, "the install's steps", func() bool { return len(in.State().Output) == 2 })
	q.drain()
	text = labels(p.Object())
	if !strings.Contains(text, "Installing the agent") || !strings.Contains(text, "[Cancel]") || strings.Contains(text, "[Install the agent]") {
		t.Fatalf("while installing:\n%s", text)
	}
	test.Tap(p.showOut)
	if !strings.Contains(labels(p.Object()), "npm error code ENOTFOUND") {
		t.Errorf("npm's output is not shown:\n%s", labels(p.Object()))
	}
	close(fail)
	in.Close()
	q.drain()
	text = labels(p.Object())
	if !strings.Contains(text, "The agent could not be installed: npm could not install it") || !strings.Contains(text, "[Try again]") {
		t.Fatalf("after a failure:\n%s", text)
	}
}

// fakeHost is the tab, for the models panel.
type fakeHost struct {
	q       *uiQueue
	target  AgentTarget
	noAgent bool
	wg      sync.WaitGroup
	used    []string
	reloads int
}

func (h *fakeHost) Do(f func()) { h.q.do(f) }
func (h *fakeHost) Go(f func(context.Context)) bool {
	h.wg.Add(1)
	go func() { defer h.wg.Done(); f(context.Background()) }()
	return true
}
func (h *fakeHost) Agent() (AgentTarget, bool)   { return h.target, !h.noAgent }
func (h *fakeHost) UseModel(provider, id string) { h.used = append(h.used, provider+"/"+id) }
func (h *fakeHost) Reload()                      { h.reloads++ }

// settle waits for the host's background work and runs what it handed
// to the UI, until nothing is left.
func (h *fakeHost) settle() {
	for {
		h.wg.Wait()
		h.q.mu.Lock()
		n := len(h.q.work)
		h.q.mu.Unlock()
		if n == 0 {
			return
		}
		h.q.drain()
	}
}

func newTestPanel(t *testing.T, h *fakeHost) (*ModelsPanel, modelsetup.Config) {
	cfg := modelsetup.Config{Dir: filepath.Join(t.TempDir(), ".pi", "agent")}
	p := NewModelsPanel(h, nil)
	p.configFor = func(context.Context, string, []string) (modelsetup.Config, error) { return cfg, nil }
	p.probeLocal = func(context.Context) []modelsetup.Server {
		return []modelsetup.Server{{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Provider: "ollama", Models: []string{"llama3:8b", "qwen2.5-coder:7b"}}}
	}
	return p, cfg
}

func TestModelsPanelConnectsAServerInOneClick(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{q: &uiQueue{}, target: AgentTarget{Path: "/bin/pi"}}
	p, cfg := newTestPanel(t, h)
	p.Start()
	h.settle()
	text := labels(p.Object())
	for _, want := range []string{cfg.ModelsFile(), "Ollama", "http://127.0.0.1:11434/v1", "[Connect]"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the panel lacks %q:\n%s", want, text)
		}
	}
	connect := findButton(p.Object(), "Connect")
	test.Tap(connect)
	if len(h.used) != 1 || h.used[0] != "ollama/llama3:8b" {
		t.Fatalf("UseModel calls: %v", h.used)
	}
	data, err := os.ReadFile(cfg.ModelsFile())
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Providers map[string]struct {
			BaseURL string              `json:"baseUrl"`
			Models  []map[string]string `json:"models"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(data, &file); err != nil || file.Providers["ollama"].BaseURL != "http://127.0.0.1:11434/v1" || len(file.Providers["ollama"].Models) != 2 {
		t.Fatalf("models.json: %v\n%s", err, data)
	}
	if !strings.Contains(labels(p.Object()), "Connected llama3:8b on Ollama") {
		t.Errorf("the panel does not say what it did:\n%s", labels(p.Object()))
	}
}

func TestModelsPanelRefusesABrokenModelsFile(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{q: &uiQueue{}, target: AgentTarget{Path: "/bin/pi"}}
	p, cfg := newTestPanel(t, h)
	os.MkdirAll(cfg.Dir, 0o700)
	os.WriteFile(cfg.ModelsFile(), []byte("{ nope"), 0o600)
	p.Start()
	h.settle()
	test.Tap(findButton(p.Object(), "Connect"))
	if len(h.used) != 0 {
		t.Fatal("the agent was restarted although nothing was written")
	}
	if text := labels(p.Object()); !strings.Contains(text, "does not parse") || !strings.Contains(text, "does not overwrite it") {
		t.Fatalf("the panel does not say why:\n%s", text)
	}
}

func TestModelsPanelKeysAndCheck(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{q: &uiQueue{}, target: AgentTarget{Path: "/bin/pi", Dir: "/work"}}
	p, cfg := newTestPanel(t, h)
	var checked modelsetup.AgentCommand
	p.check = func(_ context.Context, a modelsetup.AgentCommand, provider, _ string) (modelsetup.CheckResult, error) {
		checked = a
		if provider != "openai" {
			return modelsetup.CheckResult{}, errors.New("wrong provider " + provider)
		}
		return modelsetup.CheckResult{Model: "openai/gpt-4o-mini", Reply: "OK"}, nil
	}
	p.Start()
	h.settle()
	p.provider.SetSelected("OpenAI")
	test.Type(p.key, "sk-secret-123")
	test.Tap(p.save)
	if h.reloads != 1 || p.key.Text != "" {
		t.Fatalf("after Save: %d reloads, field %q", h.reloads, p.key.Text)
	}
	info, err := os.Stat(cfg.AuthFile())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("auth.json: %v %v", info, err)
	}
	if text := labels(p.Object()); strings.Contains(text, "sk-secret-123") || !strings.Contains(text, "Saved the OpenAI key") {
		t.Fatalf("after Save the panel says:\n%s", text)
	}
	test.Tap(p.checkBtn)
	h.settle()
	if checked.Path != "/bin/pi" || checked.Dir != "/work" {
		t.Errorf("checked with %+v", checked)
	}
	if text := labels(p.Object()); !strings.Contains(text, `OpenAI answered through the agent (openai/gpt-4o-mini): "OK"`) {
		t.Fatalf("after Check:\n%s", text)
	}
	test.Tap(p.remove)
	if names, _ := modelsetup.StoredCredentials(cfg); len(names) != 0 || h.reloads != 2 {
		t.Errorf("after Remove: %v stored, %d reloads", names, h.reloads)
	}
}

func TestModelsPanelWhereItCannotConnect(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{q: &uiQueue{}, target: AgentTarget{Remote: "build-box"}}
	p, _ := newTestPanel(t, h)
	p.Start()
	h.settle()
	if text := labels(p.Object()); !strings.Contains(text, "runs on build-box") || strings.Contains(text, "Ollama") {
		t.Fatalf("remote:\n%s", text)
	}
	h.target = AgentTarget{Path: "/bin/knightcode"}
	p.configFor = func(context.Context, string, []string) (modelsetup.Config, error) { return modelsetup.Config{}, nil }
	probed := false
	p.probeLocal = func(context.Context) []modelsetup.Server { probed = true; return nil }
	p.Start()
	h.settle()
	if text := labels(p.Object()); !strings.Contains(text, "KnightCode reference documents no models file") {
		t.Fatalf("an agent that names no folder:\n%s", text)
	}
	if probed {
		t.Error("servers were looked for although nothing can be connected")
	}
}

func findButton(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Button:
			if x.Text == text && found == nil {
				found = x
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	return found
}
