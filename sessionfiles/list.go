package sessionfiles

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// The session browser reads the agent's session files itself, read-only,
// so it can list sessions before an agent runs and show the tree of agents
// too old to answer get_tree. The format is pi's session JSONL (a header
// line, then entries linked by id/parentId); see the agent's
// docs/session-format.md.

// SessionInfo is one session file as the browser lists it.
type Info struct {
	Path, ID, Cwd     string
	Created, Modified time.Time
	// Name is the last session_info name; an empty one clears it.
	Name string
	// FirstPrompt is the first user message's text on one line, truncated.
	FirstPrompt string
	// MessageCount counts message entries on every branch, as pi's /resume,
	// but for the system prompt pi 1.6 records as a message.
	MessageCount int
	// Model is "provider/model" from the last model_change or assistant
	// message, whichever came later.
	Model         string
	ParentSession string
	// Problems say what is wrong with a file that is still listed.
	Problems []string
	// FolderGone is set when Cwd no longer exists: the agent refuses to
	// open the session there.
	FolderGone bool
}

// SkippedFile is a .jsonl file in a session folder that is no session.
type Skipped struct {
	Path, Reason string
}

// sessionScanWorkers bounds the files read at once: enough to overlap disk
// waits, few enough not to starve the UI on a 2-core machine.
var sessionScanWorkers = min(4, runtime.GOMAXPROCS(0))

// ListSessions lists the sessions in roots, newest first by modification
// time: those of the working folder cwd unless allFolders. A session belongs
// to the folder its header names; a file without a header to the folder its
// folder's name encodes (so an empty cwd matches nothing but allFolders). A
// relative root is taken from cwd, where the agent runs. Only ctx's end is
// an error; unreadable files are skipped.
func List(ctx context.Context, roots []string, cwd string, allFolders bool) ([]Info, []Skipped, error) {
	match := newFolderMatch(cwd)
	files, skipped := sessionFileList(roots, cwd, match, allFolders)
	var keep func(string) bool
	if !allFolders {
		keep = match.cwd
	}

	results := make([]sessionScanResult, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range sessionScanWorkers {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = scanSessionFile(ctx, files[i].path, keep)
			}
		})
	}
feed:
	for i := range files {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}

	var infos []Info
	for i, r := range results {
		switch {
		case errs[i] != nil: // another folder's session
		case r.skipped != "":
			if allFolders || files[i].ownFolder {
				skipped = append(skipped, Skipped{files[i].path, r.skipped})
			}
		case r.noCwd && !allFolders && !files[i].ownFolder:
		default:
			infos = append(infos, r.info)
		}
	}
	// Each folder is looked at once, however many sessions it has.
	gone := map[string]bool{}
	for i := range infos {
		cwd := infos[i].Cwd
		if _, ok := gone[cwd]; !ok {
			gone[cwd] = FolderGone(cwd)
		}
		infos[i].FolderGone = gone[cwd]
	}
	slices.SortStableFunc(infos, func(a, b Info) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return cmp.Compare(a.Path, b.Path)
	})
	return infos, skipped, nil
}

// SearchSessions keeps the sessions whose name, first prompt, folder, model
// or ID hold every word of query, ignoring case, in their order.
func Search(infos []Info, query string) []Info {
	words := strings.Fields(strings.ToLower(query))
	var out []Info
	for _, info := range infos {
		text := strings.ToLower(strings.Join([]string{info.Name, info.FirstPrompt, info.Cwd, info.Model, info.ID}, "\n"))
		if !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(text, w) }) {
			out = append(out, info)
		}
	}
	return out
}

// candidateFile is a .jsonl file that may be a session. ownFolder is set
// when its folder is the one pi would use for cwd, or a flat --session-dir
// that holds any folder's sessions: only there does a broken file concern
// the current folder.
type candidateFile struct {
	path      string
	ownFolder bool
}

// sessionFileList finds the .jsonl files pi may have written: directly in a
// root (--session-dir keeps them flat) and one folder down (the default
// sessions/--<cwd>--/ layout). Every folder is read, not only the one named
// for cwd: a header, not a folder name, says where a session belongs, and
// reading only the header of another folder's file is cheap.
func sessionFileList(roots []string, cwd string, match folderMatch, allFolders bool) ([]candidateFile, []Skipped) {
	var files []candidateFile
	var skipped []Skipped
	seen := map[string]bool{}
	add := func(path string, own bool) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		if !seen[path] {
			seen[path] = true
			files = append(files, candidateFile{path, own})
		}
	}
	for _, root := range roots {
		if root == "" {
			continue
		}
		if !filepath.IsAbs(root) && cwd != "" {
			root = filepath.Join(cwd, root)
		}
		entries, err := os.ReadDir(root)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				skipped = append(skipped, Skipped{root, err.Error()})
			}
			continue
		}
		for _, e := range entries {
			path := filepath.Join(root, e.Name())
			if isJSONL(e.Name()) && !dirOrLinkToDir(e, path) {
				add(path, true)
				continue
			}
			if !dirOrLinkToDir(e, path) {
				continue
			}
			own := match.folderName(e.Name())
			sub, err := os.ReadDir(path)
			if err != nil {
				if own || allFolders {
					skipped = append(skipped, Skipped{path, err.Error()})
				}
				continue
			}
			for _, s := range sub {
				if isJSONL(s.Name()) && !s.IsDir() {
					add(filepath.Join(path, s.Name()), own)
				}
			}
		}
	}
	return files, skipped
}

func isJSONL(name string) bool { return strings.HasSuffix(name, ".jsonl") }

// dirOrLinkToDir follows a symlink, so a linked session folder is still read.
func dirOrLinkToDir(e os.DirEntry, path string) bool {
	if e.Type()&os.ModeSymlink == 0 {
		return e.IsDir()
	}
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// folderMatch tells whether a header's cwd or a session folder's name is the
// working folder. The folder is also tried with symlinks resolved, since pi
// records process.cwd(), which the system has already resolved.
type folderMatch struct {
	dirs []string
}

func newFolderMatch(cwd string) folderMatch {
	var m folderMatch
	if cwd == "" {
		return m
	}
	m.dirs = append(m.dirs, filepath.Clean(cwd))
	if real, err := filepath.EvalSymlinks(cwd); err == nil && real != m.dirs[0] {
		m.dirs = append(m.dirs, real)
	}
	return m
}

func (m folderMatch) cwd(dir string) bool {
	if dir == "" {
		return false
	}
	dir = filepath.Clean(dir)
	for _, d := range m.dirs {
		if d == dir || (runtime.GOOS == "windows" && strings.EqualFold(d, dir)) {
			return true
		}
	}
	return false
}

func (m folderMatch) folderName(name string) bool {
	for _, d := range m.dirs {
		if name == FolderName(d) || (runtime.GOOS == "windows" && strings.EqualFold(name, FolderName(d))) {
			return true
		}
	}
	return false
}

// sessionFolderName is pi's getDefaultSessionDir encoding of a working
// folder: the leading separator dropped, separators and ':' turned into '-'.
func FolderName(cwd string) string {
	if strings.HasPrefix(cwd, "/") || strings.HasPrefix(cwd, `\`) {
		cwd = cwd[1:]
	}
	return "--" + strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(cwd) + "--"
}
