package wintest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// AppOptions say how to start a program with a window: the app against an
// agent, or the bare baseline window.
type AppOptions struct {
	Binary string   // the program
	Args   []string // its arguments
	// Dir is the folder it runs in and the place for HOME, its stdout and
	// stderr; it must exist.
	Dir     string
	Display string   // DISPLAY; empty: inherit
	Trace   string   // KNIGHTCODE_TRACE; empty: none
	Env     []string // more NAME=VALUE
}

// AppArgs builds the app's command line: --agent AGENT --cwd DIR -- ARGS.
func AppArgs(agent, cwd string, agentArgs ...string) []string {
	args := []string{"--agent", agent}
	if cwd != "" {
		args = append(args, "--cwd", cwd)
	}
	if len(agentArgs) > 0 {
		args = append(append(args, "--"), agentArgs...)
	}
	return args
}

// Proc is a started program with a window.
type Proc struct {
	Cmd     *exec.Cmd
	Pid     int
	Started time.Time // just before it was started
	Home    string
	Stdout  string // files holding its output
	Stderr  string
	Trace   string
	Display string
	done    chan struct{}
	state   *os.ProcessState
}

// Start starts the program with an isolated HOME under o.Dir, LANG=C.UTF-8
// and the display, trace file and extra environment of o.
func Start(o AppOptions) (*Proc, error) {
	home := filepath.Join(o.Dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	p := &Proc{Home: home, Stdout: filepath.Join(o.Dir, "stdout.txt"), Stderr: filepath.Join(o.Dir, "stderr.txt"),
		Trace: o.Trace, Display: o.Display, done: make(chan struct{})}
	if p.Display == "" {
		p.Display = os.Getenv("DISPLAY")
	}
	stdout, err := os.Create(p.Stdout)
	if err != nil {
		return nil, err
	}
	stderr, err := os.Create(p.Stderr)
	if err != nil {
		stdout.Close()
		return nil, err
	}
	cmd := exec.Command(o.Binary, o.Args...)
	cmd.Dir = o.Dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	env := []string{"HOME=" + home, "LANG=C.UTF-8", "LC_ALL=", "DISPLAY=" + p.Display,
		"XDG_CONFIG_HOME=", "XDG_CACHE_HOME=", "XDG_DATA_HOME=", "KNIGHTCODE_TRACE=" + o.Trace}
	cmd.Env = append(append(os.Environ(), env...), o.Env...)
	p.Cmd = cmd
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		stdout.Close()
		stderr.Close()
		return nil, err
	}
	p.Pid = cmd.Process.Pid
	go func() {
		cmd.Wait()
		stdout.Close()
		stderr.Close()
		p.state = cmd.ProcessState
		close(p.done)
	}()
	return p, nil
}

// Exited reports whether the program has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Signal sends sig to the program.
func (p *Proc) Signal(sig os.Signal) error { return p.Cmd.Process.Signal(sig) }

// Wait waits up to timeout for the program to end and returns its exit
// code (-1 and an error for a signal or a timeout).
func (p *Proc) Wait(timeout time.Duration) (int, error) {
	select {
	case <-p.done:
	case <-time.After(timeout):
		return -1, fmt.Errorf("still running after %v", timeout)
	}
	if ws, ok := p.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, fmt.Errorf("killed by %v", ws.Signal())
	}
	return p.state.ExitCode(), nil
}

// Kill ends the program, and any agent it left, if still running.
func (p *Proc) Kill() {
	if p.Exited() {
		return
	}
	kids := Children(p.Pid)
	p.Cmd.Process.Kill()
	<-p.done
	for _, k := range kids {
		if Running(k) {
			syscall.Kill(k, syscall.SIGKILL)
		}
	}
}

// StderrText is what the program wrote to stderr so far.
func (p *Proc) StderrText() string {
	b, _ := os.ReadFile(p.Stderr)
	return string(b)
}

// Marks reads the program's trace file.
func (p *Proc) Marks() Marks { return ReadTrace(p.Trace) }

// xdotool runs xdotool on the program's display.
func (p *Proc) xdotool(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+p.Display)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Xdotool runs xdotool with args on the program's display, for at most 30 s.
func (p *Proc) Xdotool(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return p.xdotool(ctx, args...)
}

// FindWindow waits up to timeout for a visible window of this process
// whose name contains name and returns its id.
func (p *Proc) FindWindow(name string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		// --sync alone could wait forever on a window that never comes:
		// the context ends it, and an early exit of the program too.
		out, err := p.xdotool(ctx, "search", "--sync", "--all", "--onlyvisible", "--pid", strconv.Itoa(p.Pid), "--name", name)
		if err == nil {
			if f := strings.Fields(out); len(f) > 0 {
				return f[0], nil
			}
		}
		if p.Exited() {
			return "", fmt.Errorf("the program exited before showing a window; stderr:\n%s", p.StderrText())
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("no visible window named %q after %v", name, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Focus gives window the keyboard focus.
func (p *Proc) Focus(window string) error {
	_, err := p.Xdotool("windowfocus", "--sync", window)
	return err
}

// Type types text into the focused window with xdotool.
func (p *Proc) Type(text string) error {
	_, err := p.Xdotool("type", "--delay", "15", "--", text)
	return err
}

// Key sends keys (xdotool key names, such as Return or shift+Return).
func (p *Proc) Key(keys ...string) error {
	_, err := p.Xdotool(append([]string{"key", "--delay", "30"}, keys...)...)
	return err
}

// Click moves the pointer to x,y inside window and clicks button 1.
func (p *Proc) Click(window string, x, y int) error {
	_, err := p.Xdotool("mousemove", "--window", window, "--sync", strconv.Itoa(x), strconv.Itoa(y), "click", "1")
	return err
}

// Geometry is a window's position and size on the screen.
type Geometry struct{ X, Y, W, H int }

// WindowGeometry asks xdotool where window is.
func (p *Proc) WindowGeometry(window string) (Geometry, error) {
	out, err := p.Xdotool("getwindowgeometry", "--shell", window)
	if err != nil {
		return Geometry{}, err
	}
	var g Geometry
	for _, line := range strings.Fields(out) {
		k, v, _ := strings.Cut(line, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "X":
			g.X = n
		case "Y":
			g.Y = n
		case "WIDTH":
			g.W = n
		case "HEIGHT":
			g.H = n
		}
	}
	if g.W == 0 || g.H == 0 {
		return g, fmt.Errorf("getwindowgeometry: %q", out)
	}
	return g, nil
}

// Record is one line the app sent to the agent, from the fake's --fake-log.
type Record struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Message string `json:"message"`
	Raw     string `json:"-"`
}

// ReadFakeLog reads the fake agent's --fake-log file: every stdin line it
// received, in order. Lines that are not JSON are kept with only Raw.
func ReadFakeLog(path string) []Record {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		var r Record
		json.Unmarshal([]byte(line), &r)
		r.Raw = line
		out = append(out, r)
	}
	return out
}

// WaitFor polls cond every interval until it holds or timeout passes.
func WaitFor(timeout, interval time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
}

// ErrNoDisplay says there is no X display to open windows on.
var ErrNoDisplay = errors.New("no X display: DISPLAY is not set")
