package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"knightcode.ai/desktop/sessionfiles"
)

// The remote agent's session files are read the way package sessionfiles
// reads local ones, from local copies: SessionRoots asks the remote side
// where they are, and a SessionMirror lists them in one ssh connection and
// copies the new and changed ones in another, into a local folder that
// sessionfiles.List, ReadTree and ReadTranscript then read.

// agentHomes are sessionfiles' agents (KnightCode and pi): the prefix of
// their variables and their folder in the home folder.
var agentHomes = []struct{ envPrefix, dotDir string }{
	{"KNIGHTCODE", ".knightcode"},
	{"PI", ".pi"},
}

// rootsScript writes, NUL-terminated: the physical path of the folder $3
// (relative to the home folder; "" when it is missing), $HOME, then for
// each pair (PREFIX, .dir) after it: $PREFIX_CODING_AGENT_SESSION_DIR,
// $PREFIX_CODING_AGENT_DIR, and the agent folder's settings.json as "F"
// and its text, or "N". It runs under the login hop, so it sees the
// variables the agent sees.
const rootsScript = `
dir=$3; shift 3;
` + expandDir + `
if cd -P "$dir" 2>/dev/null; then printf '%s\0' "$PWD"; else printf '\0'; fi;
printf '%s\0' "$HOME";
while [ $# -ge 2 ]; do
e=$1 d=$2; shift 2;
eval "s=\${${e}_CODING_AGENT_SESSION_DIR-} a=\${${e}_CODING_AGENT_DIR-}";
printf '%s\0%s\0' "$s" "$a";
case $a in "") a=$HOME/$d/agent ;; "~") a=$HOME ;; "~/"*) a=$HOME/${a#"~/"} ;; esac;
if [ -f "$a/settings.json" ] && [ -r "$a/settings.json" ]; then printf 'F'; tr -d '\000' <"$a/settings.json"; printf '\0'; else printf 'N\0'; fi;
done
`

// SessionRoots returns the remote folders that hold the agent's session
// files, by sessionfiles.Roots' rules (the agent's --session-dir in
// agentArgs, then each agent's variables and settings.json), asked of the
// remote account's login environment. A relative folder is taken from dir,
// the agent's remote folder ("" or "~" the home folder).
func (h Host) SessionRoots(ctx context.Context, agentArgs []string, dir string) ([]string, error) {
	args := []string{dir}
	for _, a := range agentHomes {
		args = append(args, a.envPrefix, a.dotDir)
	}
	var out bytes.Buffer
	if err := h.run(ctx, loginCommand(rootsScript, args...), &out); err != nil {
		return nil, err
	}
	fields := strings.Split(out.String(), "\x00")
	if len(fields) < 2+3*len(agentHomes) {
		return nil, &Error{Kind: Other, Host: h.Name(), Message: fmt.Sprintf("%s did not say where its session files are", h.Name())}
	}
	cwd, home := fields[0], fields[1]
	rel := func(p string) string {
		if p == "" || path.IsAbs(p) || cwd == "" {
			return p
		}
		return path.Join(cwd, p)
	}
	if d, ok := sessionfiles.SessionDirArg(agentArgs); ok {
		return []string{rel(d)}, nil
	}
	var roots []string
	for i := range agentHomes {
		sessionDir, agentDir, settings := fields[2+3*i], fields[3+3*i], fields[4+3*i]
		var root string
		switch {
		case sessionDir != "":
			root = expandHome(sessionDir, home)
		default:
			if d := settingsSessionDir(settings); d != "" {
				root = expandHome(d, home)
				break
			}
			if agentDir == "" {
				agentDir = path.Join(home, agentHomes[i].dotDir, "agent")
			}
			root = path.Join(expandHome(agentDir, home), "sessions")
		}
		root = path.Clean(rel(root))
		if !containsString(roots, root) {
			roots = append(roots, root)
		}
	}
	return roots, nil
}

func settingsSessionDir(settings string) string {
	text, ok := strings.CutPrefix(settings, "F")
	if !ok {
		return ""
	}
	var s struct {
		SessionDir string `json:"sessionDir"`
	}
	if json.Unmarshal([]byte(text), &s) != nil {
		return ""
	}
	return s.SessionDir
}

func expandHome(p, home string) string {
	switch {
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		return path.Join(home, p[2:])
	}
	return p
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// listSessionsScript writes st records for the .jsonl files in each
// argument and one folder down, as sessionfiles looks for them.
const listSessionsScript = statFunction + `
for r in "$@"; do st "$r"/*.jsonl "$r"/*/*.jsonl; done
`

// ListSessionFiles lists the .jsonl files in roots and one folder down,
// where sessionfiles.List looks, in one connection.
func (h Host) ListSessionFiles(ctx context.Context, roots []string) ([]File, error) {
	if len(roots) == 0 {
		return nil, nil
	}
	var out bytes.Buffer
	if err := h.run(ctx, plainCommand(listSessionsScript, roots...), &out); err != nil {
		return nil, err
	}
	var files []File
	for _, f := range parseStats(out.String()) {
		if !f.Dir && strings.HasSuffix(f.Path, ".jsonl") {
			files = append(files, f)
		}
	}
	return files, nil
}

// A SessionMirror keeps local copies of a host's session files for package
// sessionfiles. Its methods may be called from several goroutines; Syncs
// are serialised.
type SessionMirror struct {
	Host Host
	// Dir is the local folder the copies live in, one per host (a cache
	// folder: the mirror may delete anything in it).
	Dir string

	mu sync.Mutex
	// roots maps a remote root to its local folder; files a remote file
	// to its copy, and locals a copy back to its remote file.
	roots  map[string]string
	files  map[string]mirrored
	locals map[string]string
}

type mirrored struct {
	local string
	size  int64
	mod   time.Time
}

// NewSessionMirror keeps copies of h's session files in dir.
func NewSessionMirror(h Host, dir string) *SessionMirror {
	return &SessionMirror{Host: h, Dir: dir, roots: map[string]string{},
		files: map[string]mirrored{}, locals: map[string]string{}}
}

// Sync brings the copies of the session files in roots (SessionRoots) up
// to date: two connections when something changed, one when nothing did.
// It returns the local folders to give sessionfiles.List in their place.
// Copies of files no longer there are removed.
func (m *SessionMirror) Sync(ctx context.Context, roots []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	files, err := m.Host.ListSessionFiles(ctx, roots)
	if err != nil {
		return nil, err
	}
	var locals []string
	for _, r := range roots {
		locals = append(locals, m.rootLocked(r))
	}
	seen := map[string]bool{}
	var want []File
	var wantLocal []string
	for _, f := range files {
		local := m.localFor(roots, f.Path)
		if local == "" || seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		if old, ok := m.files[f.Path]; ok && old.size == f.Size && old.mod.Equal(f.Modified) && old.local == local && fileThere(local) {
			continue
		}
		want = append(want, f)
		wantLocal = append(wantLocal, local)
	}
	paths := make([]string, len(want))
	for i, f := range want {
		paths[i] = f.Path
	}
	err = m.Host.fetchFiles(ctx, paths, func(i int, data []byte) error {
		f, local := want[i], wantLocal[i]
		if data == nil {
			return nil // gone or unreadable since the listing
		}
		if err := writeCopy(local, data, f.Modified); err != nil {
			return err
		}
		m.files[f.Path] = mirrored{local: local, size: f.Size, mod: f.Modified}
		m.locals[local] = f.Path
		return nil
	})
	if err != nil {
		return nil, err
	}
	for remotePath, c := range m.files {
		if !seen[remotePath] && m.underRoots(roots, remotePath) {
			os.Remove(c.local)
			delete(m.files, remotePath)
			delete(m.locals, c.local)
		}
	}
	return locals, nil
}

func (m *SessionMirror) underRoots(roots []string, p string) bool {
	for _, r := range roots {
		if strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// rootLocked is the local folder of a remote root.
func (m *SessionMirror) rootLocked(root string) string {
	if l, ok := m.roots[root]; ok {
		return l
	}
	l := filepath.Join(m.Dir, fmt.Sprintf("root%d", len(m.roots)+1))
	m.roots[root] = l
	return l
}

// localFor is where the copy of remote file p goes: under the local folder
// of the first root that holds it.
func (m *SessionMirror) localFor(roots []string, p string) string {
	for _, r := range roots {
		prefix := strings.TrimSuffix(r, "/") + "/"
		rel, ok := strings.CutPrefix(p, prefix)
		if !ok || rel == "" || strings.Contains("/"+rel+"/", "/../") {
			continue
		}
		return filepath.Join(m.rootLocked(r), filepath.FromSlash(rel))
	}
	return ""
}

func fileThere(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func writeCopy(local string, data []byte, mod time.Time) error {
	if err := os.MkdirAll(filepath.Dir(local), 0o700); err != nil {
		return err
	}
	tmp := local + ".part"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	if !mod.IsZero() {
		os.Chtimes(tmp, mod, mod)
	}
	return os.Rename(tmp, local)
}

// Remote returns the remote file a local copy stands for, or "".
func (m *SessionMirror) Remote(local string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.locals[local]
}

// Copy is the local copy of the remote session file p as last fetched
// (listing the sessions fetches them), without asking the host whether
// it changed since; ok is false when p was never fetched.
func (m *SessionMirror) Copy(p string) (local string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.files[p]
	return c.local, ok
}

// Local returns the local copy of the remote session file p, fetching it
// first if it is new or changed (the running agent's own file): for
// sessionfiles.ReadTree and ReadTranscript.
func (m *SessionMirror) Local(ctx context.Context, p string) (string, error) {
	root := path.Dir(p)
	m.mu.Lock()
	for r := range m.roots {
		if strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			root = r
			break
		}
	}
	m.mu.Unlock()
	if err := m.syncFile(ctx, root, p); err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.files[p]
	if !ok {
		return "", &Error{Kind: FileMissing, Host: m.Host.Name(), Message: fmt.Sprintf("%s: there is no session file %s", m.Host.Name(), p)}
	}
	return c.local, nil
}

// syncFile brings the copy of one remote file under root up to date: one
// connection to see whether it changed, one more to fetch it if it did.
func (m *SessionMirror) syncFile(ctx context.Context, root, p string) error {
	var out bytes.Buffer
	if err := m.Host.run(ctx, plainCommand(statFunction+`st "$1"`, p), &out); err != nil {
		return err
	}
	files := parseStats(out.String())
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(files) != 1 || files[0].Dir {
		return nil
	}
	f := files[0]
	local := m.localFor([]string{root}, p)
	if old, ok := m.files[p]; ok && old.size == f.Size && old.mod.Equal(f.Modified) && fileThere(old.local) {
		return nil
	}
	err := m.Host.fetchFiles(ctx, []string{p}, func(_ int, data []byte) error {
		if data == nil {
			return nil
		}
		if err := writeCopy(local, data, f.Modified); err != nil {
			return err
		}
		m.files[p] = mirrored{local: local, size: f.Size, mod: f.Modified}
		m.locals[local] = p
		return nil
	})
	return err
}

// List is sessionfiles.List for the remote machine: it syncs the copies of
// the files in roots and lists them for the remote folder cwd (absolute,
// as Probe's Found.Dir), with each Info's and Skipped's Path the remote
// file (what switch_session takes: read the copy with Local) and
// FolderGone asked of the remote machine.
func (m *SessionMirror) List(ctx context.Context, roots []string, cwd string, allFolders bool) ([]sessionfiles.Info, []sessionfiles.Skipped, error) {
	locals, err := m.Sync(ctx, roots)
	if err != nil {
		return nil, nil, err
	}
	infos, skipped, err := sessionfiles.List(ctx, locals, cwd, allFolders)
	if err != nil {
		return nil, nil, err
	}
	var dirs []string
	seen := map[string]bool{}
	for i := range infos {
		if r := m.Remote(infos[i].Path); r != "" {
			infos[i].Path = r
		}
		if d := infos[i].Cwd; d != "" && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	for i := range skipped {
		if r := m.Remote(skipped[i].Path); r != "" {
			skipped[i].Path = r
		}
	}
	there, err := m.Host.FoldersExist(ctx, dirs)
	if err != nil {
		return nil, nil, err
	}
	for i := range infos {
		infos[i].FolderGone = infos[i].Cwd != "" && !there[infos[i].Cwd]
	}
	return infos, skipped, nil
}
