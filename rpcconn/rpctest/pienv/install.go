package pienv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"knightcode.ai/desktop/agentsetup"
	"knightcode.ai/desktop/internal/filelock"
)

const (
	// Package and Version pin the older agent the tests were first measured
	// against (shared/protocol/older-agent-differences.md); a different
	// version may differ in the very details the tests check.
	Package = "@mariozechner/pi-coding-agent"
	Version = "0.73.1"
	// BinaryEnv names a pi executable to use instead of the cached install
	// of the selected release.
	BinaryEnv = "KNIGHTCODE_PI"
	// VersionEnv selects the release the real-agent suites run against:
	// Version (the default) or agentsetup.Current's, pi 1.6.0, which the
	// app installs for its users (shared/protocol/current-agent.md).
	// scripts/test.sh runs the real-agent suites once with each.
	VersionEnv = "KNIGHTCODE_PI_VERSION"
	// CacheDir is where Install puts pi, relative to the repository root
	// (git-ignored, shared by every package's tests).
	CacheDir = ".cache/pi"
	// CurrentCacheDir is where the current release goes, with its Node.
	CurrentCacheDir = ".cache/pi-current"
	// NPMCacheDir is npm's cache for every install of the project (these,
	// and the window suite's fresh-machine install), so each package is
	// downloaded once.
	NPMCacheDir = ".cache/npm"
)

// Release is a pi release the real-agent suites run against.
type Release struct {
	Package, Version string
}

// Older is pi 0.73.1; Current is the release the app installs.
var (
	Older   = Release{Package, Version}
	Current = Release{agentsetup.Current.Package, agentsetup.Current.Version}
)

// IsCurrent reports whether r is the current generation (1.x), for tests
// whose expectations differ between the two.
func (r Release) IsCurrent() bool { return r == Current }

func (r Release) String() string { return "pi " + r.Version }

// Selected is the release the suites run against: $KNIGHTCODE_PI_VERSION,
// else Older.
func Selected() Release {
	switch os.Getenv(VersionEnv) {
	case Current.Version, "current":
		return Current
	}
	return Older
}

// npm normally needs about 30 s; the slack is for a slow registry.
const installTimeout = 10 * time.Minute

// Locate returns the pi to test with: $KNIGHTCODE_PI if set, else the copy
// of the selected release cached under root, installing it first if it is
// missing.
func Locate(root string) (string, error) {
	if bin := os.Getenv(BinaryEnv); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("pienv: $%s=%s: %w", BinaryEnv, bin, err)
		}
		return bin, nil
	}
	if Selected().IsCurrent() {
		return InstallCurrent(root)
	}
	if bin, ok := cached(root); ok {
		return bin, nil
	}
	return Install(root)
}

// Module is where the pi at bin keeps its package (its dist/ holds the
// modules tests import, such as dist/core/tools/edit-diff.js) and the Node
// that runs it: for an install the app made (the current release), what its
// record says; for npm's .bin/pi, the package the symlink leads into and the
// node on PATH.
func Module(bin string) (pkgDir, node string, err error) {
	if p, ok := agentsetup.PathsOf(bin); ok {
		if p.Node == "" {
			p.Node = "node"
		}
		return p.Package, p.Node, nil
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "", "", fmt.Errorf("pienv: %w", err)
	}
	return filepath.Dir(filepath.Dir(real)), "node", nil // …/pi-coding-agent/dist/cli.js
}

// InstallCurrent puts the current release, with npm's Node where this
// machine's is too old for it, under root/CurrentCacheDir through the app's
// own installer (agentsetup) and returns its launcher. It is quick when it
// is there already.
func InstallCurrent(root string) (string, error) {
	env := append(os.Environ(), "npm_config_cache="+filepath.Join(root, filepath.FromSlash(NPMCacheDir)))
	if v := os.Getenv("npm_config_cache"); v != "" {
		env = os.Environ()
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	res, err := agentsetup.Install(ctx, agentsetup.Options{Dir: filepath.Join(root, filepath.FromSlash(CurrentCacheDir)), Env: env})
	if err != nil {
		return "", fmt.Errorf("pienv: installing %s: %w (set $%s to a pi %s launcher to use one installed elsewhere)", Current, err, BinaryEnv, Current.Version)
	}
	return res.Launcher, nil
}

// Install runs npm to put pi Version under root/CacheDir and returns the
// binary. Concurrent installs (go test runs packages in parallel processes)
// are serialised by a lock file; whoever waited finds the work done.
func Install(root string) (string, error) {
	prefix := filepath.Join(root, filepath.FromSlash(CacheDir))
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		return "", fmt.Errorf("pienv: %w", err)
	}
	unlock, err := lockFile(prefix+".lock", installTimeout+time.Minute)
	if err != nil {
		return "", err
	}
	defer unlock()
	if bin, ok := cached(root); ok {
		return bin, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("pienv: cannot install pi: npm is not on PATH (install Node.js 20+ with npm, or set $%s to a pi %s binary)", BinaryEnv, Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	spec := Package + "@" + Version
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, spec)
	if os.Getenv("npm_config_cache") == "" {
		cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(root, filepath.FromSlash(NPMCacheDir)))
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("pienv: npm install %s failed (%v): the npm registry could not be reached or refused the install.\n"+
			"npm printed:\n%s\nSet $%s to a pi %s binary to use one installed elsewhere.",
			spec, err, strings.TrimSpace(string(out)), BinaryEnv, Version)
	}
	if bin, ok := cached(root); ok {
		return bin, nil
	}
	return "", fmt.Errorf("pienv: npm install %s succeeded but %s is missing or not version %s; npm printed:\n%s",
		spec, binPath(prefix), Version, strings.TrimSpace(string(out)))
}

// cached reports the installed binary only if it is the pinned version, so
// bumping Version reinstalls instead of silently testing an old agent.
func cached(root string) (string, bool) {
	prefix := filepath.Join(root, filepath.FromSlash(CacheDir))
	bin := binPath(prefix)
	if _, err := os.Stat(bin); err != nil {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(prefix, "node_modules", filepath.FromSlash(Package), "package.json"))
	if err != nil {
		return "", false
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Version != Version {
		return "", false
	}
	return bin, true
}

func binPath(prefix string) string {
	name := "pi"
	if runtime.GOOS == "windows" {
		name = "pi.cmd"
	}
	return filepath.Join(prefix, "node_modules", ".bin", name)
}

// lockFile takes an exclusive lock by creating path (filelock.Create, as
// agentsetup does), waiting at most a minute longer than stale. A lock
// older than stale is left over from a killed process and is broken.
func lockFile(path string, stale time.Duration) (unlock func(), err error) {
	ctx, cancel := context.WithTimeout(context.Background(), stale+time.Minute)
	defer cancel()
	unlock, err = filelock.Create(ctx, path, stale)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("pienv: timed out waiting for %s (remove it if no install is running)", path)
	case err != nil:
		return nil, fmt.Errorf("pienv: %w", err)
	}
	return unlock, nil
}
