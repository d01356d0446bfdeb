package agentsetup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Record is what an install wrote about itself beside the launcher.
type Record struct {
	Package string `json:"package"`
	Version string `json:"version"`
	// Node says which Node runs it, in words; NodeBin is that Node's
	// program, relative to the install's folder when the install carries
	// it, absolute when it is the system's.
	Node      string    `json:"node"`
	NodeBin   string    `json:"nodeBin"`
	Installed time.Time `json:"installed"`
}

// Paths of an install the app made: its folder (the launcher's parent's
// parent), the agent's package folder and the Node that runs it.
type Paths struct {
	Dir, Package, Node string
}

// PathsOf finds the folders of the install a launcher belongs to; ok is
// false for an agent the app did not install.
func PathsOf(launcher string) (Paths, bool) {
	rec, ok := RecordOf(launcher)
	if !ok {
		return Paths{}, false
	}
	dir := filepath.Dir(filepath.Dir(launcher))
	p := Paths{Dir: dir, Package: filepath.Join(dir, "node_modules", filepath.FromSlash(rec.Package)), Node: rec.NodeBin}
	if p.Node != "" && !filepath.IsAbs(p.Node) {
		p.Node = filepath.Join(dir, filepath.FromSlash(p.Node))
	}
	return p, true
}

const recordName = "installed.json"

// ReadRecord reads the record of the install in dir, the folder holding
// bin/ (the launcher's parent's parent).
func ReadRecord(dir string) (Record, error) {
	var rec Record
	data, err := os.ReadFile(filepath.Join(dir, recordName))
	if err != nil {
		return rec, err
	}
	err = json.Unmarshal(data, &rec)
	return rec, err
}

// RecordOf reads the record of the install a launcher belongs to; ok is
// false for an agent the app did not install.
func RecordOf(launcher string) (Record, bool) {
	rec, err := ReadRecord(filepath.Dir(filepath.Dir(launcher)))
	return rec, err == nil && rec.Package != ""
}

func launcherNode(launcher string) string {
	rec, _ := RecordOf(launcher)
	return rec.Node
}

// writeLauncher writes prefix/bin/pi (pi.cmd on Windows), which runs the
// package's program with the chosen Node. Its paths are relative to its own
// folder, so the install can move (it is made in a staging folder, and a
// bundle carries one). It also writes the install's record.
func writeLauncher(prefix string, r Release, node NodeChoice) (string, error) {
	bin, err := packageBin(prefix, r)
	if err != nil {
		return "", err
	}
	program := filepath.Join("node_modules", filepath.FromSlash(r.Package), filepath.FromSlash(bin))
	if _, err := os.Stat(filepath.Join(prefix, program)); err != nil {
		return "", fmt.Errorf("npm finished but the agent's program is missing: %w", err)
	}
	if node.Package != "" {
		if _, err := os.Stat(nodeBinIn(prefix, node)); err != nil {
			return "", fmt.Errorf("npm finished but Node is missing: %w", err)
		}
	}
	launcher := LauncherPath(prefix)
	if err := os.MkdirAll(filepath.Dir(launcher), 0o755); err != nil {
		return "", err
	}
	var text string
	if runtime.GOOS == "windows" {
		text = windowsLauncher(r, node, program)
	} else {
		text = unixLauncher(r, node, program)
	}
	if err := os.WriteFile(launcher, []byte(text), 0o755); err != nil {
		return "", err
	}
	nodeBin := node.System
	if node.Package != "" {
		nodeBin = filepath.ToSlash(filepath.Join("node_modules", node.Package, filepath.FromSlash(node.Bin)))
	}
	rec, _ := json.MarshalIndent(Record{Package: r.Package, Version: r.Version, Node: node.Why, NodeBin: nodeBin, Installed: time.Now().UTC()}, "", "  ")
	if err := os.WriteFile(filepath.Join(prefix, recordName), append(rec, '\n'), 0o644); err != nil {
		return "", err
	}
	return launcher, nil
}

// unixLauncher is a POSIX shell script that execs Node, so the agent's
// process is the one the app started and its signals reach Node.
func unixLauncher(r Release, node NodeChoice, program string) string {
	var nodeLine string
	if node.Package != "" {
		nodeLine = `node="$here/` + filepath.ToSlash(filepath.Join("node_modules", node.Package, node.Bin)) + `"`
	} else {
		// The Node found at install time; if it has gone since, the one
		// on PATH.
		nodeLine = "node=" + shellQuote(node.System) + "\n" + `[ -x "$node" ] || node=node`
	}
	return "#!/bin/sh\n" +
		"# " + r.String() + " (npm " + r.Spec() + "), installed by KnightCode Desktop.\n" +
		"# Runs it with " + node.Why + ".\n" +
		`here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd) || exit 1` + "\n" +
		nodeLine + "\n" +
		`exec "$node" "$here/` + filepath.ToSlash(program) + `" "$@"` + "\n"
}

func windowsLauncher(r Release, node NodeChoice, program string) string {
	nodeExe := "node"
	if node.Package != "" {
		nodeExe = `"%~dp0..\` + filepath.Join("node_modules", node.Package, filepath.FromSlash(node.Bin)) + `"`
	} else if node.System != "" {
		nodeExe = `"` + node.System + `"`
	}
	return "@echo off\r\n" +
		"rem " + r.String() + " (npm " + r.Spec() + "), installed by KnightCode Desktop.\r\n" +
		nodeExe + ` "%~dp0..\` + program + `" %*` + "\r\n"
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
