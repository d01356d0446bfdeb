package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"knightcode.ai/desktop/model"
)

// agentFiles opens the files the agent names: a tool's whole output
// ("Show all"), checked to be one of the agent's own, as text in a viewer
// of the app's; an export, in the browser.
type agentFiles struct {
	*tabHost
}

// "Show all" shows a tool's full output, a file the agent names. The agent
// can name any path, so the window never hands it to the system's default
// program (which would run a program, open a link, a shortcut). It shows
// the file as text in a dialog of its own, and only a regular, not
// executable file in a folder the agent writes its outputs to.

// outputViewLimit is how much of a file the viewer shows.
const outputViewLimit = 1_000_000

// beforeOutputOpen runs between the check of a path and its opening; a
// test swaps the file there. The opened file is compared with the checked
// one, so a swap in that window is refused.
var beforeOutputOpen = func(realPath string) {}

// windowsPrograms are the names Windows runs (or follows, .lnk) when a
// file is opened.
var windowsPrograms = []string{".exe", ".bat", ".cmd", ".com", ".ps1", ".msi", ".scr", ".lnk", ".vbs", ".js"}

func expandTilde(path, home string) string {
	if home != "" && (path == "~" || strings.HasPrefix(path, "~/")) {
		return filepath.Join(home, strings.TrimPrefix(path, "~"))
	}
	return path
}

// outputFile is a checked, opened file; the caller closes it.
type outputFile struct {
	*os.File
	// asked is the path the agent named, real where the links lead.
	asked, real string
	info        fs.FileInfo
}

// checkOutputPath opens path if its real place (links followed) is inside
// one of folders, and it is a regular file and not a program. The file
// opened is the one checked: one put in its place meanwhile is refused.
func checkOutputPath(path string, folders []string) (*outputFile, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	abs = filepath.Clean(abs)
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist (the agent may have removed it)", abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", abs, err)
	}
	if !insideAny(real, folders) {
		if real != abs {
			return nil, fmt.Errorf("%s leads to %s, which is outside the folders the agent writes its outputs to", abs, real)
		}
		return nil, fmt.Errorf("%s is outside the folders the agent writes its outputs to", abs)
	}
	checked, err := os.Lstat(real)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", abs, err)
	}
	if err := showable(abs, checked, runtime.GOOS); err != nil {
		return nil, err
	}
	beforeOutputOpen(real)
	f, err := openNoWait(real)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, err)
	}
	opened, err := f.Stat()
	if err == nil && !os.SameFile(checked, opened) {
		err = fmt.Errorf("%s changed while it was being opened; it is not shown", abs)
	}
	if err == nil {
		err = showable(abs, opened, runtime.GOOS)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &outputFile{File: f, asked: abs, real: real, info: opened}, nil
}

// showable says why a file is not shown: it is not a regular file, or it
// is a program (an x bit; on Windows, a name Windows runs).
func showable(path string, info fs.FileInfo, goos string) error {
	mode := info.Mode()
	switch {
	case mode.IsDir():
		return fmt.Errorf("%s is a folder, not a regular file", path)
	case !mode.IsRegular():
		return fmt.Errorf("%s is not a regular file (%s)", path, fileKind(mode))
	case isProgram(path, mode, goos):
		return fmt.Errorf("%s is a program; it is not opened", path)
	}
	return nil
}

func isProgram(path string, mode fs.FileMode, goos string) bool {
	if goos != "windows" {
		return mode.Perm()&0o111 != 0
	}
	ext := strings.ToLower(filepath.Ext(path))
	for _, p := range windowsPrograms {
		if ext == p {
			return true
		}
	}
	return false
}

func fileKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeSymlink != 0:
		return "a link"
	case mode&fs.ModeNamedPipe != 0:
		return "a pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// insideAny reports whether real is inside one of folders, each taken
// where its links lead.
func insideAny(real string, folders []string) bool {
	for _, dir := range folders {
		if dir == "" {
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		rel, err := filepath.Rel(filepath.Clean(abs), real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			continue
		}
		return true
	}
	return false
}

// checkHostOutputPath checks a path on the agent's host before it is
// copied here. The host's links cannot be followed from here, so this is a
// check of the words of the path: absolute, no "..", and under the host's
// temporary folder or an agent's folder. The copy is then checked again
// here (regular, not a program) and only ever shown as text, so a link on
// the host can at worst show a file's text, never run anything.
func checkHostOutputPath(p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("%s on the host is not an absolute path", p)
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return fmt.Errorf("%s on the host climbs out of its folder (..)", p)
		}
	}
	clean := path.Clean(p)
	for _, tmp := range []string{"/tmp/", "/var/tmp/", "/private/tmp/", "/var/folders/", "/private/var/folders/"} {
		if strings.HasPrefix(clean, tmp) {
			return nil
		}
	}
	els := strings.Split(clean, "/")
	for i := 0; i+2 < len(els); i++ {
		if (els[i] == ".pi" || els[i] == ".knightcode") && els[i+1] == "agent" {
			return nil
		}
	}
	return fmt.Errorf("%s on the host is outside the folders the agent writes its outputs to", p)
}

// openAgentFile shows a file the agent named (a tool's full output): here,
// or copied from the host first.
func (f *agentFiles) openAgentFile(path string) {
	if _, onHost := f.controller.Remote(); !onHost {
		f.showOutputFile(path)
		return
	}
	if err := checkHostOutputPath(path); err != nil {
		f.refuseOutput(err)
		return
	}
	dir := cacheDir("remote-files")
	fetch := func(ctx context.Context) (string, error) { return f.controller.FetchFile(ctx, path, dir) }
	model.Ask(f.controller, model.CallTimeout, fetch, func(local string, err error) {
		if err != nil {
			f.showError(fmt.Errorf("fetching %s from the host: %w", path, err))
			return
		}
		f.showOutputFile(local)
	})
}

// showOutputFile checks and reads path off the UI goroutine, one of the
// tab's workers, then shows it in the viewer or says why not.
func (f *agentFiles) showOutputFile(path string) {
	folders := f.outputFolders()
	f.bg.Go(func(context.Context) {
		out, err := loadOutput(path, folders)
		f.do(func() {
			if err != nil {
				f.refuseOutput(err)
				return
			}
			f.showOutputViewer(out)
		})
	})
}

func (f *agentFiles) refuseOutput(err error) {
	f.message("Cannot show the output", sentence(err.Error()))
}

// outputFolders are the folders an agent writes the files Show all shows
// to: the temporary folder (pi's bash tool saves long output there), the
// agents' own folders, the session folders, and the app's copies of a
// host's files.
func (f *agentFiles) outputFolders() []string {
	home, _ := os.UserHomeDir()
	dirs := []string{os.TempDir(), cacheDir("remote-files")}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".knightcode", "agent"), filepath.Join(home, ".pi", "agent"))
	}
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(name, "_CODING_AGENT_DIR") || strings.HasSuffix(name, "_CODING_AGENT_SESSION_DIR") {
			dirs = append(dirs, expandTilde(value, home))
		}
	}
	if f.controller != nil {
		if _, onHost := f.controller.Remote(); onHost {
			return dirs // the session folders are the host's
		}
	}
	for _, d := range sessionRootsOf(f.started.args) {
		if !filepath.IsAbs(d) && f.started.dir != "" {
			d = filepath.Join(f.started.dir, d) // pi takes it from its working folder
		}
		dirs = append(dirs, d)
	}
	return dirs
}
