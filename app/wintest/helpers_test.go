package wintest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// binDir holds the binaries built for this test run: each is built once.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wintest-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// e2e is set by scripts/test.sh: what a window test needs and lacks is
// then a failure, not a reason to skip.
func e2e() bool { return os.Getenv("KNIGHTCODE_E2E") == "1" }

// requireWindow skips (or, with KNIGHTCODE_E2E=1, fails) a test without an
// X display or the tools that drive and read it.
func requireWindow(t *testing.T) {
	t.Helper()
	lack := func(msg string) {
		t.Helper()
		if e2e() {
			t.Fatalf("KNIGHTCODE_E2E=1 but %s", msg)
		}
		t.Skipf("skipped: %s (scripts/test.sh starts Xvfb and sets KNIGHTCODE_E2E=1, which makes this a failure)", msg)
	}
	if os.Getenv("DISPLAY") == "" {
		lack("DISPLAY is not set: window tests need an X display")
	}
	for _, tool := range []string{"xdotool", "import", "convert", "tesseract"} {
		if _, err := exec.LookPath(tool); err != nil {
			lack(tool + " is not installed (scripts/setup-system.sh installs it)")
		}
	}
}

// build is one binary built for the run.
type build struct {
	once sync.Once
	path string
	took time.Duration
	out  string
	err  error
}

var (
	buildsMu sync.Mutex
	builds   = map[string]*build{}
)

// moduleRoot is the folder of go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the module")
	}
	return filepath.Dir(mod), nil
}

// buildBinary builds pkg (a path inside the module) with flags, once per
// name for the whole test run, and returns the binary and how long the
// build took. Concurrent callers wait for the same build. A nice build
// runs at a lower priority, so the window tests running beside it keep
// their pace.
func buildBinary(name, pkg string, nice bool, flags ...string) (string, time.Duration, error) {
	buildsMu.Lock()
	b := builds[name]
	if b == nil {
		b = &build{}
		builds[name] = b
	}
	buildsMu.Unlock()
	b.once.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(binDir, name)
		args := append(append([]string{"build"}, flags...), "-o", b.path, pkg)
		cmd := exec.Command("go", args...)
		if nicePath, err := exec.LookPath("nice"); err == nil && nice {
			cmd = exec.Command(nicePath, append([]string{"-n", "10", "go"}, args...)...)
		}
		cmd.Dir = root
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		b.err = cmd.Run()
		b.took = time.Since(start)
		b.out = out.String()
		if b.err != nil {
			b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), b.err, b.out)
		}
	})
	return b.path, b.took, b.err
}

func appBinary(t *testing.T) string {
	t.Helper()
	p, took, err := buildBinary("knightcode-desktop", ".", false, "-tags", "migrated_fynedo")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("app binary %s (built in %v)", p, took.Round(time.Millisecond))
	return p
}

func fakeBinary(t *testing.T) string {
	t.Helper()
	p, _, err := buildBinary("fake-knightcode", "./rpcconn/rpctest/cmd/fake-knightcode", false)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// artifacts is a folder that outlives the test for its screenshots and
// logs: under KNIGHTCODE_ARTIFACTS when set (scripts/test.sh sets it),
// else a new temporary folder. Its path is logged.
func artifacts(t *testing.T) string {
	t.Helper()
	name := unsafeName.ReplaceAllString(t.Name(), "_")
	var dir string
	if root := os.Getenv("KNIGHTCODE_ARTIFACTS"); root != "" {
		dir = filepath.Join(root, "wintest", name)
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	} else {
		d, err := os.MkdirTemp("", "wintest-"+name+"-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	t.Logf("screenshots and logs: %s", dir)
	return dir
}

// session is the app started against the fake agent, with its files.
type session struct {
	t       *testing.T
	p       *Proc
	dir     string
	fakeLog string
	window  string
	shots   int
}

// startApp starts app against the fake agent (agent arguments after the
// fake's log flag), waits for its window, focuses it and waits until the
// transcript has been loaded and drawn.
func startApp(t *testing.T, app string, agentArgs ...string) *session {
	t.Helper()
	return startAppIn(t, app, artifacts(t), "trace.txt", nil, agentArgs...)
}

// startAppIn is startApp with the test's folder dir (HOME, the working
// folder and the fake's log inside it: a second start in it finds what the
// first left), a trace file of its own there, and more environment.
func startAppIn(t *testing.T, app, dir, trace string, env []string, agentArgs ...string) *session {
	t.Helper()
	s := &session{t: t, dir: dir, fakeLog: filepath.Join(dir, "fake-log.jsonl")}
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	args := AppArgs(fakeBinary(t), work, append([]string{"--fake-log=" + s.fakeLog}, agentArgs...)...)
	p, err := Start(AppOptions{Binary: app, Args: args, Dir: dir, Trace: filepath.Join(dir, trace), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	s.p = p
	t.Cleanup(func() {
		if !p.Exited() {
			p.Kill()
		}
		if t.Failed() {
			t.Logf("app stderr:\n%s", p.StderrText())
		}
	})
	if s.window, err = p.FindWindow("KnightCode", 60*time.Second); err != nil {
		t.Fatal(err)
	}
	if !WaitFor(60*time.Second, 20*time.Millisecond, func() bool {
		_, ok := p.Marks().First("history", time.Time{}, nil)
		return ok
	}) {
		t.Fatalf("the app never loaded the transcript (no history mark); fake log:\n%s", s.fakeLogText())
	}
	s.waitDrawn(10 * time.Second)
	if err := p.Focus(s.window); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *session) fakeLogText() string {
	b, _ := os.ReadFile(s.fakeLog)
	return string(b)
}

// waitDrawn waits until the app has drawn nothing new for 300 ms.
func (s *session) waitDrawn(max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		last, ok := s.p.Marks().Last("draw")
		if ok && time.Since(last.T) > 300*time.Millisecond {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// agent returns the pid of the app's only live child, the agent.
func (s *session) agent() int {
	s.t.Helper()
	var kids []int
	WaitFor(time.Minute, 20*time.Millisecond, func() bool {
		kids = Children(s.p.Pid)
		return len(kids) == 1
	})
	if len(kids) != 1 {
		s.t.Fatalf("the app has %d child processes, want 1 (the agent): %v", len(kids), kids)
	}
	return kids[0]
}

// records returns what the app sent the agent, of type typ.
func (s *session) records(typ string) []Record {
	var out []Record
	for _, r := range ReadFakeLog(s.fakeLog) {
		if r.Type == typ {
			out = append(out, r)
		}
	}
	return out
}

// typeText types text into the focused window and checks the editor saw
// all of it (its trace mark gives the text's length).
func (s *session) typeText(text string) {
	s.t.Helper()
	from := time.Now()
	if err := s.p.Type(text); err != nil {
		s.t.Fatal(err)
	}
	n := len(text)
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool {
		_, ok := s.p.Marks().First("editor", from, func(m Mark) bool { return m.N() >= n })
		return ok
	}) {
		last, _ := s.p.Marks().Last("editor")
		s.t.Fatalf("typed %q (%d bytes) without clicking, but the editor holds %s bytes: it did not have the keyboard focus", text, n, last.Arg)
	}
}

// send types a prompt, presses Return and waits for the fake to get it.
func (s *session) send(prompt string) {
	s.t.Helper()
	before := len(s.records("prompt"))
	s.typeText(prompt)
	if err := s.p.Key("Return"); err != nil {
		s.t.Fatal(err)
	}
	var got []Record
	if !WaitFor(time.Minute, 20*time.Millisecond, func() bool {
		got = s.records("prompt")
		return len(got) > before
	}) {
		s.t.Fatalf("the agent never got the prompt %q; it got:\n%s", prompt, s.fakeLogText())
	}
	if got[before].Message != prompt {
		s.t.Fatalf("the agent got the prompt %q, want exactly %q", got[before].Message, prompt)
	}
}

// waitRunEnd waits until the app asked for the stats after the last
// prompt: it does on agent_settled, once the run has ended.
func (s *session) waitRunEnd(max time.Duration) {
	s.t.Helper()
	if !WaitFor(max, 20*time.Millisecond, func() bool {
		recs := ReadFakeLog(s.fakeLog)
		last := -1
		for i, r := range recs {
			if r.Type == "prompt" {
				last = i
			}
		}
		for _, r := range recs[last+1:] {
			if r.Type == "get_session_stats" {
				return true
			}
		}
		return false
	}) {
		s.t.Fatalf("the run did not end within %v; the agent got:\n%s", max, s.fakeLogText())
	}
	s.waitIdle(max)
}

// waitIdle waits until the app's main thread has caught up: under 20 % busy
// over half a second, and no draw for 300 ms. The agent may be done long
// before the window has drawn all of it.
func (s *session) waitIdle(max time.Duration) {
	deadline := time.Now().Add(max)
	prev, err := ReadCPU(s.p.Pid)
	if err != nil {
		return
	}
	for time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		cur, err := ReadCPU(s.p.Pid)
		if err != nil {
			return
		}
		busy := cur.Main - prev.Main
		prev = cur
		last, _ := s.p.Marks().Last("draw")
		if busy < 100*time.Millisecond && time.Since(last.T) > 300*time.Millisecond {
			return
		}
	}
	s.t.Logf("the app was still busy after %v", max)
}

// screen takes a screenshot and reads it; the PNG stays in the test's
// artifacts folder.
func (s *session) screen(name string) (string, []Word) {
	s.t.Helper()
	s.shots++
	path := filepath.Join(s.dir, fmt.Sprintf("%02d-%s.png", s.shots, name))
	if err := Screenshot(s.p.Display, path); err != nil {
		s.t.Fatal(err)
	}
	g, err := s.p.WindowGeometry(s.window)
	if err != nil {
		s.t.Fatal(err)
	}
	words, err := OCR(path, g)
	if err != nil {
		s.t.Fatal(err)
	}
	return path, words
}

// waitWord takes screenshots until the window shows word (up to max) and
// returns where.
func (s *session) waitWord(name, word string, max time.Duration) Word {
	s.t.Helper()
	deadline := time.Now().Add(max)
	for {
		path, words := s.screen(name)
		if w, ok := FindWord(words, word); ok {
			s.t.Logf("%q on screen at %d,%d: %s", word, w.X, w.Y, path)
			return w
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%q is not on screen after %v; screenshot %s reads:\n%s", word, max, path, Text(words))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// quit sends sig and checks the app exits 0 and leaves no agent behind.
func (s *session) quit(sig os.Signal) {
	s.t.Helper()
	agent := s.agent()
	if err := s.p.Signal(sig); err != nil {
		s.t.Fatal(err)
	}
	code, err := s.p.Wait(2 * time.Minute)
	if err != nil {
		s.t.Fatalf("after %v: %v; stderr:\n%s", sig, err, s.p.StderrText())
	}
	if code != 0 {
		s.t.Fatalf("after %v the app exited %d, want 0; stderr:\n%s", sig, code, s.p.StderrText())
	}
	// The agent ends a while after the app; generously bounded.
	if !WaitFor(2*time.Minute, 20*time.Millisecond, func() bool { return !Running(agent) }) {
		s.t.Fatalf("the agent (pid %d: %s) still runs 2 minutes after the app exited", agent, CommandLine(agent))
	}
}
