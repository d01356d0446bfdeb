package pienv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// Env is everything needed to start pi against one model server.
type Env struct {
	Binary   string // the pi executable
	BaseURL  string // the model server, http://127.0.0.1:PORT/v1
	Home     string // isolated HOME
	AgentDir string // Home/.pi/agent: models.json, settings.json
	WorkDir  string // the agent's working folder, empty at first
	// SessionDir is where sessions are saved, or "" when pi runs with
	// --no-session.
	SessionDir string
	// Env is the complete environment for pi; nothing is inherited but
	// PATH and the temp folder, so a developer's API keys, proxies or
	// PI_* settings cannot leak into a test.
	Env []string
	// Args are pi's arguments without --mode; see Command.
	Args []string
}

// Option adjusts Prepare.
type Option func(*options)

type options struct {
	model      string
	extensions []string
	args       []string
	session    bool
	sessionDir string
	settings   map[string]any
}

// WithExtension loads a TypeScript extension (-e PATH). A relative path is
// taken from the current folder, not from the agent's WorkDir.
func WithExtension(path string) Option {
	return func(o *options) { o.extensions = append(o.extensions, path) }
}

// WithArgs appends arguments after the defaults.
func WithArgs(args ...string) Option {
	return func(o *options) { o.args = append(o.args, args...) }
}

// WithSessionDir makes pi save sessions in dir (--session-dir) instead of
// running with --no-session. An empty dir means a new folder inside the
// environment.
func WithSessionDir(dir string) Option {
	return func(o *options) { o.session, o.sessionDir = true, dir }
}

// WithModel starts pi on another model of the local provider, such as
// PlainModel.
func WithModel(id string) Option {
	return func(o *options) { o.model = id }
}

// WithSettings adds top-level keys to ~/.pi/agent/settings.json, for example
// {"retry": {"enabled": false}} so a scripted HTTP error is not retried.
func WithSettings(settings map[string]any) Option {
	return func(o *options) {
		if o.settings == nil {
			o.settings = map[string]any{}
		}
		for k, v := range settings {
			o.settings[k] = v
		}
	}
}

// Prepare creates home/ and work/ (and sessions/ if asked) inside dir and
// returns how to run binary there against the model server at baseURL.
func Prepare(binary, dir, baseURL string, opts ...Option) (*Env, error) {
	o := options{model: ReasonerModel}
	for _, opt := range opts {
		opt(&o)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("pienv: %w", err)
	}
	e := &Env{
		Binary:  binary,
		BaseURL: baseURL,
		Home:    filepath.Join(dir, "home"),
		WorkDir: filepath.Join(dir, "work"),
	}
	e.AgentDir = filepath.Join(e.Home, ".pi", "agent")
	if err := writeAgentDir(e.AgentDir, baseURL, o.settings); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(e.WorkDir, 0o755); err != nil {
		return nil, fmt.Errorf("pienv: %w", err)
	}

	e.Args = []string{"--provider", Provider, "--model", o.model,
		"--no-skills", "--no-prompt-templates", "--no-context-files"}
	if o.session {
		e.SessionDir = o.sessionDir
		if e.SessionDir == "" {
			e.SessionDir = filepath.Join(dir, "sessions")
		}
		if err := os.MkdirAll(e.SessionDir, 0o755); err != nil {
			return nil, fmt.Errorf("pienv: %w", err)
		}
		e.Args = append(e.Args, "--session-dir", e.SessionDir)
	} else {
		e.Args = append(e.Args, "--no-session")
	}
	for _, ext := range o.extensions {
		abs, err := filepath.Abs(ext)
		if err != nil {
			return nil, fmt.Errorf("pienv: extension %s: %w", ext, err)
		}
		e.Args = append(e.Args, "-e", abs)
	}
	e.Args = append(e.Args, o.args...)
	e.Env = environment(e.Home, e.AgentDir)
	return e, nil
}

// environment is built from scratch rather than from os.Environ. PI_OFFLINE
// turns off every startup network call pi 0.73.1 knows (version check,
// package update checks, install telemetry, downloading fd/rg for the
// grep/find tools); PI_SKIP_VERSION_CHECK and PI_TELEMETRY say the same for
// versions that honour only those.
func environment(home, agentDir string) []string {
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		KeyEnv + "=" + keyValue,
		"PI_CODING_AGENT_DIR=" + agentDir,
		"PI_OFFLINE=1",
		"PI_SKIP_VERSION_CHECK=1",
		"PI_TELEMETRY=0",
	}
	keep := []string{"TMPDIR"}
	if runtime.GOOS == "windows" {
		env = append(env, "USERPROFILE="+home)
		keep = append(keep, "SystemRoot", "ComSpec", "PATHEXT", "TEMP", "TMP")
	}
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Command returns pi with Env, WorkDir and Args followed by extra, for
// example Command(ctx, "--mode", "rpc"). Cancelling ctx kills it.
func (e *Env) Command(ctx context.Context, extra ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, e.Binary, append(append([]string(nil), e.Args...), extra...)...)
	cmd.Dir = e.WorkDir
	cmd.Env = e.Env
	// A bash tool's children may keep pi's pipes open after pi exits; don't
	// let Wait hang on them.
	cmd.WaitDelay = 5 * time.Second
	return cmd
}
