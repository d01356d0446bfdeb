package wintest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/agentsetup"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
)

// TestFreshMachineToFirstReply walks a new user's path on this machine: a
// fresh HOME and no agent on PATH; the agent installed the way
// scripts/run.sh installs it (knightcode-desktop --install-agent, pi 1.6.0
// and npm's Node 22 into the app's data folder); a model server on
// 127.0.0.1:11434 posing as Ollama (the scripted llmserver); the window's
// first screen finds it, one click on Connect connects it, and a typed
// prompt gets a streamed reply. It counts the clicks, times each step and
// keeps a screenshot of each.
func TestFreshMachineToFirstReply(t *testing.T) {
	requireWindow(t)
	if _, err := exec.LookPath("npm"); err != nil {
		if e2e() {
			t.Fatal("npm is needed to install the agent (scripts/setup-system.sh installs it)")
		}
		t.Skip("npm is not installed")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	app := appBinary(t)
	dir := artifacts(t)
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The user's machine: node and npm, no agent. npm's cache is the
	// project's, shared with the other suites' installs, so a second run
	// downloads nothing.
	env := []string{"HOME=" + home, "PATH=" + pathWithoutAgents(t), "XDG_DATA_HOME=", "XDG_CONFIG_HOME=", "XDG_CACHE_HOME=",
		"npm_config_cache=" + filepath.Join(root, ".cache", "npm"), "LANG=C.UTF-8"}

	var timeline []string
	began := time.Now()
	mark := func(what string) {
		timeline = append(timeline, what+": "+time.Since(began).Round(10*time.Millisecond).String())
		t.Logf("%s after %v", what, time.Since(began).Round(10*time.Millisecond))
	}

	// 1. What run.sh runs before it opens the window.
	install := exec.Command(app, "--install-agent")
	install.Dir = work
	install.Env = append(os.Environ(), env...)
	out, err := install.CombinedOutput()
	os.WriteFile(filepath.Join(dir, "install-agent.txt"), out, 0o644)
	if err != nil {
		t.Fatalf("--install-agent: %v\n%s", err, out)
	}
	launcher := filepath.Join(home, ".local", "share", "knightcode-desktop", "agent", "bin", "pi")
	if !strings.Contains(string(out), "agent: pi "+agentsetup.Current.Version+" ("+launcher+")") {
		t.Fatalf("--install-agent did not say it installed %s at %s:\n%s", agentsetup.Current, launcher, out)
	}
	mark("agent installed")
	// Idempotent: a second run finds it and installs nothing.
	again := exec.Command(app, "--install-agent")
	again.Env = install.Env
	if out, err := again.CombinedOutput(); err != nil || !strings.Contains(string(out), "installed by this app in its data folder") {
		t.Fatalf("a second --install-agent: %v\n%s", err, out)
	}

	// 2. A model server where Ollama listens.
	srv, err := llmserver.NewAt(11434)
	if err != nil {
		t.Fatalf("the model server cannot pose as Ollama: %v (is something else on 127.0.0.1:11434?)", err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.SetLogFile(filepath.Join(dir, "requests.jsonl")); err != nil {
		t.Fatal(err)
	}

	// 3. The app, as run.sh starts it: no --agent.
	p, err := Start(AppOptions{Binary: app, Dir: dir, Env: env, Trace: filepath.Join(dir, "trace.txt")})
	if err != nil {
		t.Fatal(err)
	}
	p.Cmd.Dir = work
	t.Cleanup(func() {
		if !p.Exited() {
			p.Kill()
		}
		if t.Failed() {
			t.Logf("app stderr:\n%s", p.StderrText())
		}
	})
	s := &session{t: t, p: p, dir: dir}
	if s.window, err = p.FindWindow("KnightCode", 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	mark("window shown")
	clicks := 0
	// The panel grows as it learns more (the lead, the server's models):
	// on a busy machine a button found in one screenshot has moved by the
	// time it is clicked. Click only where two screenshots agree.
	connect := s.waitButton("connect-panel", "Connect", 3*time.Minute)
	for settle := time.Now().Add(time.Minute); time.Now().Before(settle); {
		again := s.waitButton("connect-panel", "Connect", time.Minute)
		if again.X == connect.X && again.Y == connect.Y {
			break
		}
		connect = again
	}
	mark("first screen lists the server")
	if _, words := s.screen("first-screen"); !hasWords(words, "Ollama") {
		t.Fatalf("the first screen does not name Ollama: %s", Text(words))
	}
	x, y := connect.Center()
	g, _ := p.WindowGeometry(s.window)
	clicked := time.Now()
	if err := p.Click(s.window, x-g.X, y-g.Y); err != nil {
		t.Fatal(err)
	}
	clicks++
	s.waitWord("connected", "ready", 3*time.Minute)
	mark("connected, the first screen says ready")

	models, err := os.ReadFile(filepath.Join(home, ".pi", "agent", "models.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Providers map[string]struct {
			BaseURL string `json:"baseUrl"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(models, &file); err != nil || file.Providers["ollama"].BaseURL != "http://127.0.0.1:11434/v1" {
		t.Fatalf("models.json: %v\n%s", err, models)
	}

	// 4. Type and send, as a person does.
	if err := p.Focus(s.window); err != nil {
		t.Fatal(err)
	}
	if err := p.Type("Hello, show me some markdown please"); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	if err := p.Key("Return"); err != nil {
		t.Fatal(err)
	}
	s.waitWord("first-reply", "scripted", 3*time.Minute)
	mark("first reply on screen (as the screenshots read it)")

	// What the app itself marked, finer than the screenshots can tell.
	marks := p.Marks()
	if m, ok := marks.First("connected", p.Started, nil); ok {
		timeline = append(timeline, "window launch → agent connected (trace): "+m.T.Sub(p.Started).Round(time.Millisecond).String())
	}
	if m, ok := marks.First("connected", clicked, nil); ok {
		timeline = append(timeline, "Connect clicked → restarted agent connected (trace): "+m.T.Sub(clicked).Round(time.Millisecond).String())
	}
	if m, ok := marks.First("draw", sent, func(m Mark) bool { return m.N() > 0 }); ok {
		timeline = append(timeline, "Enter → first words of the reply drawn (trace): "+m.T.Sub(sent).Round(time.Millisecond).String())
	}
	if reqs := srv.Requests(); len(reqs) < 1 {
		t.Errorf("the model server answered %d requests", len(reqs))
	}
	t.Logf("clicks from launch to the first reply: %d (Connect); typed: one prompt and Enter", clicks)

	// 5. A cloud provider's key, from the palette: Ctrl+K, "Connect a
	// model", Enter; the key typed into the masked field, Enter saves it.
	// It lands in the agent's auth.json, 0600, and in no other file: not
	// the app's output, its trace, the agent's files or the screen.
	const key = "sk-ant-wintest-7c21e9"
	if err := p.Key("ctrl+k"); err != nil {
		t.Fatal(err)
	}
	if err := p.Type("Connect a model"); err != nil {
		t.Fatal(err)
	}
	if err := p.Key("Return"); err != nil {
		t.Fatal(err)
	}
	field := s.waitKeyField("models-dialog", time.Minute)
	fx, fy := field.Center()
	if err := p.Click(s.window, fx-g.X, fy-g.Y); err != nil {
		t.Fatal(err)
	}
	if err := p.Type(key); err != nil {
		t.Fatal(err)
	}
	if err := p.Key("Return"); err != nil {
		t.Fatal(err)
	}
	_, words := s.screen("key-saved")
	if strings.Contains(Text(words), key) {
		t.Error("the key is readable on the screen")
	}
	s.waitWord("key-saved", "Saved", time.Minute)
	auth := filepath.Join(home, ".pi", "agent", "auth.json")
	if info, err := os.Stat(auth); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("auth.json: %v %v", info, err)
	}
	if b, _ := os.ReadFile(auth); !strings.Contains(string(b), key) {
		t.Fatalf("auth.json does not hold the key:\n%s", b)
	}
	if err := p.Key("Escape"); err != nil {
		t.Fatal(err)
	}
	t.Logf("timeline from --install-agent:\n  %s", strings.Join(timeline, "\n  "))
	os.WriteFile(filepath.Join(dir, "timeline.txt"), []byte(strings.Join(timeline, "\n")+"\n"), 0o644)
	s.quit(os.Interrupt)
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path != auth {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), key) {
				t.Errorf("%s holds the API key", path)
			}
		}
		return nil
	})
}

// waitKeyField takes screenshots until the models dialog's key field is on
// screen and returns its placeholder: the word "API" on the row of the
// Check button. The palette's row for the dialog says "API key" too, and on
// a busy machine the palette is still drawn when the first screenshot is
// taken: a click there lands on no field, and the key goes nowhere.
func (s *session) waitKeyField(name string, max time.Duration) Word {
	s.t.Helper()
	deadline := time.Now().Add(max)
	for {
		path, words := s.screen(name)
		if check, ok := FindWord(words, "Check"); ok {
			for _, w := range words {
				dy := w.Y + w.H/2 - (check.Y + check.H/2)
				if normWord(w.Text) == normWord("API") && w.X < check.X && dy*dy < check.H*check.H {
					s.t.Logf("the key field is on screen at %d,%d: %s", w.X, w.Y, path)
					return w
				}
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the key field is not on screen after %v; screenshot %s reads:\n%s", max, path, Text(words))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// pathWithoutAgents is PATH without the folders that hold a knightcode or
// pi: the new user has node and npm, no agent.
func pathWithoutAgents(t *testing.T) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "pi")); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "knightcode")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

func hasWords(words []Word, want ...string) bool {
	for _, w := range want {
		if _, ok := FindWord(words, w); !ok {
			return false
		}
	}
	return true
}

// waitButton takes screenshots until the window shows a word that is
// exactly label and returns the lowest one (a button under a heading
// that starts with the same word).
func (s *session) waitButton(name, label string, max time.Duration) Word {
	s.t.Helper()
	deadline := time.Now().Add(max)
	for {
		path, words := s.screen(name)
		var best Word
		found := false
		for _, w := range words {
			if normWord(w.Text) == normWord(label) && (!found || w.Y > best.Y) {
				best, found = w, true
			}
		}
		if found {
			return best
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no %q on screen after %v; screenshot %s reads:\n%s", label, max, path, Text(words))
		}
		time.Sleep(500 * time.Millisecond)
	}
}
