package agentsetup

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Progress is one step of an install: a line in words or of npm's output,
// and how far the download has come.
type Progress struct {
	// Line is a step in words or a line npm printed; empty for a size
	// update only.
	Line string
	// Done is how many bytes the install holds on disk so far, Total
	// about how many it will hold.
	Done, Total int64
}

// Options say what to install where.
type Options struct {
	// Dir is the folder to install into; empty: AgentDir().
	Dir string
	// Release is what to install; zero: Current.
	Release Release
	// Progress, when set, hears each step. It is called from the
	// installing goroutines, one call at a time.
	Progress func(Progress)
	// Env is npm's and the agent's environment; nil: this process's.
	Env []string
	// BundleNode installs npm's Node whatever the system has: for a
	// bundle that runs on other machines.
	BundleNode bool
}

// Result is an installed agent.
type Result struct {
	// Launcher is the program to start: Dir/bin/pi.
	Launcher string
	// Version is what the agent's --version printed.
	Version string
	// Node says which Node runs it.
	Node string
	// AlreadyInstalled is set when nothing had to be installed.
	AlreadyInstalled bool
}

// installTimeout bounds npm: about 40 s on a good line, minutes on a
// slow one.
const installTimeout = 30 * time.Minute

// Install puts the release and, where the system's Node is too old, npm's
// Node into the folder, writes the launcher and checks it by running
// --version. It is idempotent: a folder that already holds the release is
// only checked. The install happens in Dir.partial and replaces Dir only
// once it runs, so a cancelled or failed install leaves what was there.
// Cancelling ctx stops npm and everything it started.
func Install(ctx context.Context, o Options) (Result, error) {
	if o.Release.Package == "" {
		o.Release = Current
	}
	if o.Dir == "" {
		d, err := AgentDir()
		if err != nil {
			return Result{}, fmt.Errorf("no folder for the agent: %w", err)
		}
		o.Dir = d
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	in := &installer{o: o}
	if err := os.MkdirAll(filepath.Dir(o.Dir), 0o755); err != nil {
		return Result{}, err
	}
	unlock, err := lock(ctx, o.Dir+".lock")
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	if res, err := in.check(ctx, o.Dir); err == nil {
		res.AlreadyInstalled = true
		in.say("%s is installed in %s", o.Release, o.Dir)
		return res, nil
	}
	return in.install(ctx)
}

type installer struct {
	o  Options
	mu sync.Mutex
}

func (in *installer) report(p Progress) {
	if in.o.Progress == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.o.Progress(p)
}

func (in *installer) say(format string, args ...any) {
	in.report(Progress{Line: fmt.Sprintf(format, args...)})
}

func (in *installer) install(ctx context.Context) (Result, error) {
	r := in.o.Release
	npm, err := npmPath()
	if err != nil {
		return Result{}, err
	}
	sys, sysErr := SystemNode(ctx)
	if in.o.BundleNode {
		sys, sysErr = Node{}, errors.New("a bundle carries its own Node")
	}
	node, err := chooseNode(r, sys, sysErr, runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return Result{}, err
	}
	staging := in.o.Dir + ".partial"
	if err := os.RemoveAll(staging); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return Result{}, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(staging)
		}
	}()
	// A package.json of its own keeps npm from looking for a project in
	// the folders above.
	if err := os.WriteFile(filepath.Join(staging, "package.json"), []byte("{\"private\": true}\n"), 0o644); err != nil {
		return Result{}, err
	}
	specs := []string{r.Spec()}
	total := r.Size
	if node.Package != "" {
		specs = append(specs, node.Package+"@"+NodeRelease)
	} else {
		total -= NodeSize
	}
	in.say("Installing %s with %s into %s", r, node.Why, in.o.Dir)
	args := append([]string{"install", "--prefix", staging, "--no-audit", "--no-fund", "--no-update-notifier", "--omit=dev",
		// npm's warnings are about the Node it runs on, not the one the
		// agent will run with; errors and its summary still show.
		"--loglevel=error"}, specs...)
	if err := in.runNPM(ctx, npm, args, staging, total); err != nil {
		return Result{}, err
	}
	launcher, err := writeLauncher(staging, r, node)
	if err != nil {
		return Result{}, err
	}
	in.say("Checking the agent: %s --version", filepath.Base(launcher))
	if _, err := in.check(ctx, staging); err != nil {
		return Result{}, err
	}
	if err := replaceDir(staging, in.o.Dir); err != nil {
		return Result{}, err
	}
	ok = true
	res, err := in.check(ctx, in.o.Dir)
	if err != nil {
		return Result{}, err
	}
	in.say("Installed %s in %s", r, in.o.Dir)
	return res, nil
}

// runNPM runs npm in a process group of its own, passing its lines on and
// the install's size once a second, until it ends or ctx is cancelled.
func (in *installer) runNPM(ctx context.Context, npm string, args []string, staging string, total int64) error {
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	cmd := exec.Command(npm, args...)
	cmd.Dir = staging
	cmd.Env = in.o.Env
	setGroup(cmd)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	var tail lastLines
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := strings.TrimRight(sc.Text(), "\r")
			if strings.TrimSpace(line) == "" {
				continue
			}
			tail.add(line)
			in.report(Progress{Line: line})
		}
		io.Copy(io.Discard, pr)
	}()
	if err := cmd.Start(); err != nil {
		pw.Close()
		<-lines
		return fmt.Errorf("npm could not start: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick.C:
			in.report(Progress{Done: dirSize(staging), Total: total})
		case <-ctx.Done():
			killGroup(cmd)
			<-done
			pw.Close()
			<-lines
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("npm did not finish in %s", installTimeout)
			}
			return ctx.Err()
		}
	}
	pw.Close()
	<-lines
	if err != nil {
		return fmt.Errorf("npm could not install %s (%v); its last lines:\n%s\nMost likely the npm registry could not be reached.", in.o.Release.Spec(), err, tail.String())
	}
	in.report(Progress{Done: dirSize(staging), Total: total})
	return nil
}

// check runs the launcher in dir with --version and compares what it
// prints with the release.
func (in *installer) check(ctx context.Context, dir string) (Result, error) {
	r := in.o.Release
	launcher := LauncherPath(dir)
	if _, err := os.Stat(launcher); err != nil {
		return Result{}, err
	}
	got, err := RunVersion(ctx, launcher, in.o.Env)
	if err != nil {
		return Result{}, err
	}
	if got != r.Version {
		return Result{}, fmt.Errorf("%s --version printed %q, not %s", launcher, got, r.Version)
	}
	return Result{Launcher: launcher, Version: got, Node: launcherNode(launcher)}, nil
}

// RunVersion runs agent --version, offline, and returns the version it
// printed (its last word).
func RunVersion(ctx context.Context, agent string, env []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agent, "--version")
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env, "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --version failed (%v): %s", agent, err, firstLine(string(out)))
	}
	words := strings.Fields(firstLine(string(out)))
	if len(words) == 0 {
		return "", fmt.Errorf("%s --version printed nothing", agent)
	}
	return strings.TrimPrefix(words[len(words)-1], "v"), nil
}

// replaceDir puts staging where dir is, moving an older dir aside first
// and removing it once the new one is in place.
func replaceDir(staging, dir string) error {
	old := dir + ".old"
	os.RemoveAll(old)
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(staging, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	os.RemoveAll(old)
	return nil
}

// dirSize adds up the sizes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// packageBin reads the package's bin entry for name from its package.json.
func packageBin(prefix string, r Release) (string, error) {
	manifest := filepath.Join(prefix, "node_modules", filepath.FromSlash(r.Package), "package.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		return "", fmt.Errorf("npm finished but %s is missing: %w", manifest, err)
	}
	var pkg struct {
		Version string          `json:"version"`
		Bin     json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return "", fmt.Errorf("%s: %w", manifest, err)
	}
	if pkg.Version != r.Version {
		return "", fmt.Errorf("npm installed %s %s, not %s", r.Package, pkg.Version, r.Version)
	}
	var one string
	if json.Unmarshal(pkg.Bin, &one) == nil && one != "" {
		return one, nil
	}
	var bins map[string]string
	if json.Unmarshal(pkg.Bin, &bins) == nil && bins[r.Name] != "" {
		return bins[r.Name], nil
	}
	return "", fmt.Errorf("%s names no %q program", manifest, r.Name)
}

// lastLines keeps the last few lines of npm's output for an error.
type lastLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *lastLines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
	if len(l.lines) > 12 {
		l.lines = l.lines[len(l.lines)-12:]
	}
}

func (l *lastLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return "  " + strings.Join(l.lines, "\n  ")
}
