package modelsetup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Config is where an agent keeps its providers and keys.
type Config struct {
	// Dir is the agent's configuration folder, such as ~/.pi/agent;
	// empty when the agent names none.
	Dir string
	// DirEnv is the environment variable that moves it, and DirFrom
	// says where Dir came from, in words.
	DirEnv, DirFrom string
}

// Known reports whether the agent named its configuration folder.
func (c Config) Known() bool { return c.Dir != "" }

// ModelsFile is the agent's models.json.
func (c Config) ModelsFile() string { return filepath.Join(c.Dir, "models.json") }

// AuthFile is the agent's credential file, auth.json.
func (c Config) AuthFile() string { return filepath.Join(c.Dir, "auth.json") }

// configLine is how pi's --help names its folder (0.73.1 and 1.6.0 alike):
// "PI_CODING_AGENT_DIR  - Config directory (default: ~/.pi/agent)".
var configLine = regexp.MustCompile(`(?m)^\s*([A-Z][A-Z0-9_]*_DIR)\s+-\s+Config directory \(default: ([^)]+)\)`)

// ConfigFor asks the agent where its configuration lives, by reading its
// --help: a probe, not a guess from its name or version. env is the
// environment the agent runs with (nil: ours). An agent whose help names no
// configuration folder gets a Config that is not Known: the KnightCode
// reference documents none.
func ConfigFor(ctx context.Context, agent string, env []string) (Config, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.CommandContext(ctx, agent, "--help")
	cmd.Env = append(env, "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return Config{}, fmt.Errorf("%s --help did not finish: %w", agent, ctx.Err())
	}
	if err != nil && len(out) == 0 {
		return Config{}, fmt.Errorf("%s --help: %w", agent, err)
	}
	return configFromHelp(string(out), env), nil
}

func configFromHelp(help string, env []string) Config {
	m := configLine.FindStringSubmatch(help)
	if m == nil {
		return Config{}
	}
	name, def := m[1], strings.TrimSpace(m[2])
	if v := lookupEnv(env, name); v != "" {
		return Config{Dir: v, DirEnv: name, DirFrom: "$" + name}
	}
	if rest, ok := strings.CutPrefix(def, "~"); ok {
		home := lookupEnv(env, "HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		def = filepath.Join(home, filepath.FromSlash(rest))
	}
	return Config{Dir: def, DirEnv: name, DirFrom: "the agent's default"}
}

// lookupEnv is the last value of name in env, as exec would pass it.
func lookupEnv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}
